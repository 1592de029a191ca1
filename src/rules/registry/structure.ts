/** Rules of the "structure" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';
import skillAbsolutePath from '../skill-absolute-path.js';
import skillBodyTooLong from '../skill-body-too-long.js';
import skillBodyTooManyTokens from '../skill-body-too-many-tokens.js';
import skillBrokenAnchor from '../skill-broken-anchor.js';
import skillBrokenLink from '../skill-broken-link.js';
import skillDeepFileReference from '../skill-deep-file-reference.js';
import skillDeepReference from '../skill-deep-reference.js';
import skillMetadataTooManyTokens from '../skill-metadata-too-many-tokens.js';
import skillNamedFileMissing from '../skill-named-file-missing.js';
import skillNoProgressiveDisclosure from '../skill-no-progressive-disclosure.js';
import skillOrphanReference from '../skill-orphan-reference.js';
import skillReferenceBrokenLink from '../skill-reference-broken-link.js';
import skillRefMissingToc from '../skill-ref-missing-toc.js';
import skillTimeSensitive from '../skill-time-sensitive.js';
import skillWindowsPath from '../skill-windows-path.js';

export const structureRules: Rule[] = [
  skillAbsolutePath,
  skillBodyTooLong,
  skillBodyTooManyTokens,
  skillBrokenAnchor,
  skillBrokenLink,
  skillDeepFileReference,
  skillDeepReference,
  skillMetadataTooManyTokens,
  skillNamedFileMissing,
  skillNoProgressiveDisclosure,
  skillOrphanReference,
  skillReferenceBrokenLink,
  skillRefMissingToc,
  skillTimeSensitive,
  skillWindowsPath,
];
