/** Rules of the "frontmatter" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';
import skillAllowedToolsFormat from '../skill-allowed-tools-format.js';
import skillCompatibilityTooLong from '../skill-compatibility-too-long.js';
import skillDescriptionLength from '../skill-description-length.js';
import skillDescriptionMissingTrigger from '../skill-description-missing-trigger.js';
import skillDescriptionNotThirdPerson from '../skill-description-not-third-person.js';
import skillDescriptionTooLong from '../skill-description-too-long.js';
import skillDescriptionXmlTag from '../skill-description-xml-tag.js';
import skillLicenseFileMissing from '../skill-license-file-missing.js';
import skillMetadataDeepNesting from '../skill-metadata-deep-nesting.js';
import skillMetadataInlineMap from '../skill-metadata-inline-map.js';
import skillNameConsecutiveHyphens from '../skill-name-consecutive-hyphens.js';
import skillNameInvalidChars from '../skill-name-invalid-chars.js';
import skillNameLeadingHyphen from '../skill-name-leading-hyphen.js';
import skillNameMismatchDir from '../skill-name-mismatch-dir.js';
import skillNameReservedWord from '../skill-name-reserved-word.js';
import skillNameTooLong from '../skill-name-too-long.js';
import skillNameTrailingHyphen from '../skill-name-trailing-hyphen.js';
import skillNameVague from '../skill-name-vague.js';
import skillUnknownFrontmatterKey from '../skill-unknown-frontmatter-key.js';

export const frontmatterRules: Rule[] = [
  skillAllowedToolsFormat,
  skillCompatibilityTooLong,
  skillDescriptionLength,
  skillDescriptionMissingTrigger,
  skillDescriptionNotThirdPerson,
  skillDescriptionTooLong,
  skillDescriptionXmlTag,
  skillLicenseFileMissing,
  skillMetadataDeepNesting,
  skillMetadataInlineMap,
  skillNameConsecutiveHyphens,
  skillNameInvalidChars,
  skillNameLeadingHyphen,
  skillNameMismatchDir,
  skillNameReservedWord,
  skillNameTooLong,
  skillNameTrailingHyphen,
  skillNameVague,
  skillUnknownFrontmatterKey,
];
