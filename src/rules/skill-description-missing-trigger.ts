import { defineRule } from '../engine/rule.js';
import { descriptionField, entryPlace, textField, userInvokedOnly } from './lib/frontmatter-fields.js';
import { charLength } from '../util/text.js';

/** Descriptions this short are not judged. */
const MIN_LENGTH = 20;

/**
 * Phrases that tell an agent when to use a skill, matched as whole words, case-insensitively, with
 * any run of white space between words. The reference's nine phrases (use when, use for, use if,
 * applies when, run when, triggers, requires, use this, activate) plus common inflections and
 * the phrasings used by the Agent Skills and Claude Code documentation.
 */
const TRIGGERS = new RegExp(
  '\\b(?:' +
    [
      'use (?:it |them |(?:this |the )?skill )?(?:(?:immediately|right|only|offline) )?(?:when|whenever|for|if|to|after|before|during|once|on|with|at)',
      // "Use `analysis-agent` for …", "Use an independently assigned `review-agent` on …": who, then when
      'use (?:an? |the )?(?:[\\p{L}-]+ ){0,2}`[^`]+` (?:when|whenever|for|if|to|after|before|during|on|with)',
      'use this',
      'use (?:it |this skill )?as (?:an?|the) ',
      'used (?:when|for|if|to)',
      'appl(?:y|ies) (?:when|to)',
      'runs? when',
      'invoked? (?:(?:this skill|it) )?(?:when|for|if|before|after|at)',
      'load (?:(?:this skill|it) )?(?:when|whenever|for|if|before|after)',
      'invoked (?:by|from)',
      '(?:fires|runs|dispatched) (?:on|when|from)',
      'always[- ]on',
      'trigger(?:s|ed)?',
      'requires',
      'activat(?:e|es|ed|ion)',
      'when the user',
      'when (?:the )?(?:agent|assistant|claude|codex|model) (?:needs|is asked|wants)',
      'when (?:a|the) (?:request|task|question|prompt|conversation|user request)',
      'when you (?:need|want)',
      'when (?:building|writing|creating|working|reviewing|debugging|testing|editing|adding|migrating|deploying|setting up|asked)',
      'for (?:any|all) (?:tasks?|requests?|questions?) (?:that|about|involving|related)',
      'whenever',
      // a condition stated as a clause: "… when backlogs exist but the queue is stale", "when an idea has been discussed"
      'when (?!to\\b)(?:a|an|the|your|its|their|this|these|some|any|(?:[\\p{L}\\d+-]+,? ){1,5}(?:is|are|was|were|exists?|has|have|should|needs?|must|fails?|changes?|lacks?|already|asks?|mentions?|wants?|says?|requests?|opens?))\\b',
      '(?:after|before) (?:a|an|the|each|every|any) ',
    ].join('|') +
    ')\\b',
  'iu',
);

/**
 * The same in Chinese and Japanese, where words are not separated by spaces: "触发" (trigger),
 * "当用户…" (when the user …), "…时使用" (use when …), "适用于" (applies to), "使用场景" (when to use),
 * "…ときに使用" / "…場合に使用" (use when …), "…で起動" (activated by …); and in Korean, "사용한다" (use),
 * "…할 때" (when …).
 */
const CJK_TRIGGERS = new RegExp(
  [
    // Chinese
    '触发|觸發|当用户|當用戶|当.{1,40}?时|當.{1,40}?時|[时時]使用|适用于|適用於|使用场景|使用場景|何[时時]用|用于.{0,20}?场景',
    // Japanese
    'ときに(?:使用|使う)|場合に(?:使用|使う)|たら.{0,20}?使(?:用|う)|トリガー|(?:など)?で使(?:う|用)|時に使(?:う|用)|たい(?:時|とき)|(?:等|など)?で(?:起動|呼ぶ)|に(?:自ら)?起動|ときの作法',
    // Korean: "사용한다" / "사용하세요" (use), "…할 때" (when …), "쓴다" (use), "트리거" (trigger)
    '사용(?:한다|하세요|합니다|해|할)|할 때|될 때|일 때|쓴다|트리거',
  ].join('|'),
  'u',
);

/**
 * …and in Russian, Spanish, German and French ("Активируется при …", "Используй, когда …", "Úsalo
 * cuando …", "Verwenden, wenn …", "Utiliser lorsque …"), matched as whole words.
 */
const OTHER_TRIGGERS =
  /(?<!\p{L})(?:активир\p{L}*|срабатывает|используй(?:те)?|используется|применяй(?:те)?|когда пользователь|úsal[oa]|usar cuando|usa cuando|cuando el usuario|verwende(?:n)?|wenn (?:der|die) (?:benutzer|nutzer)|utilise[rz]? (?:quand|lorsque|pour)|(?:quand|lorsque) l'utilisateur)(?!\p{L})/iu;

export default defineRule({
  meta: {
    code: 'skill-description-missing-trigger',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'frontmatter',
    description: 'Require the frontmatter description to say when the skill should be used',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message:
          "description doesn't indicate when to use this skill. Add a 'Use when...' or 'Use for...' clause so agents know when to activate it",
        help: "Agents choose skills by their description; end it with e.g. 'Use when the user asks to …'.",
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const d = descriptionField(skill);
      if (!d || charLength(d.text) <= MIN_LENGTH) continue;
      // a skill only the user invokes is never chosen by the model by its description
      if (userInvokedOnly(skill)) continue;
      // a frontmatter key of its own says when (`when_to_use: …`, Claude Code)
      if (textField(skill, 'when_to_use', true) || textField(skill, 'when-to-use', true)) continue;
      if (TRIGGERS.test(d.text.replace(/\s+/gu, ' ')) || CJK_TRIGGERS.test(d.text) || OTHER_TRIGGERS.test(d.text)) continue;
      report({ messageId: 'missing', data: {}, at: entryPlace(skill, d.entry), skill: skill.name });
    }
  },
});
