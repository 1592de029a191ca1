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
      // "Run after /deliver-use-case", "Runs only when …"
      'runs? (?:only |automatically )?(?:when|whenever|after|before|once)',
      'invoked? (?:(?:this skill|it) )?(?:when|for|if|before|after|at)',
      'load (?:(?:this skill|it) )?(?:when|whenever|for|if|before|after)',
      // "invoked by /sprint-deliver", "must only be invoked explicitly via /deliver-use-case"
      'invoked (?:(?:only|explicitly|directly|manually|automatically) ){0,2}(?:by|from|via|through)',
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
      // "… after /deliver-use-case or before `/sprint-complete`": the command it follows or precedes
      '(?:after|before) [`\'"]?/[\\p{L}\\d][\\w:-]*',
    ].join('|') +
    ')\\b',
  'iu',
);

/**
 * Japanese says when in a clause that ends in a condition word — 場合 (case), 際 (occasion),
 * とき/時 (time), たら/なら/れば (if), 前/後 (before/after) — followed by a verb of using or
 * activating in any form: "…する際に使用", "…場合に使います", "…ときは呼び出す", "…したら発動する".
 * The verb is matched by its stem, so every conjugation counts (使う, 使い, 使って, 使用する…).
 * "…で発動" / "…で起動" / "…で呼び出す" name the phrase that activates the skill; "…に関する依頼に対応"
 * the requests it answers.
 */
const JA_USE = '(?:使[うわいえっ]|使用|利用|活用|発動|起動|呼び出|呼ば|呼ん|呼ぶ|適用|用い|実行|参照|読み込)';
const JA_WHEN = '(?:場合|際|とき|時|折|たら|なら|れば|前|後)';
/** What may stand between the condition and the verb: "…たら必ずこのスキルを使用する". */
const JA_FILLER = '(?:必ず|常に|ぜひ|自動的に|積極的に|この|本|当|スキル|ツール|を|が|、|,|\\s)*';
const JA_TRIGGERS = [
  `${JA_WHEN}(?:に|には|は|で|にも)?${JA_FILLER}${JA_USE}`,
  `で(?:発動|起動|呼び出)`,
  // "…に関する依頼に対応": the requests it answers (as "for any request about …")
  '(?:依頼|リクエスト|要望|要求|相談)(?:に対応|に応じ|の際|時|があれば|があった|を受け)',
  'トリガー|発動条件|起動条件|使用タイミング|使いどころ|利用シーン|使用場面|ときの作法',
  // "「レビューして」などで使う", "対話、ミーティングで使用": the phrases a user says, the situations it is for
  '(?:など|等)?で使(?:う|用|い|っ)',
  'たい(?:時|とき)',
  'に(?:自ら)?起動',
].join('|');

/**
 * Chinese: "当…时" (when …), "当要求…" / "当需要…" (when asked / when … is needed, with or without the
 * closing 时), a time or situation word — 时 (when), 场景/情况下 (situation) — followed by a verb of
 * using, calling or triggering ("…时使用", "…时调用", "…场景下触发"), "在…之前/之后…使用" (use before /
 * after …), "用于用户…" (for when the user …), "适用于" (applies to), "适用场景" (where it applies),
 * "触发" (trigger) and "使用场景" (when to use), in simplified and traditional characters.
 */
const ZH_USE = '(?:使用|调用|調用|启用|啟用|触发|觸發|加载|載入|激活|啟動|启动|用)';
/** A verb of using or running, without the bare 用 (which is part of too many words to stand after a gap). */
const ZH_RUN = '(?:使用|调用|調用|启用|啟用|触发|觸發|加载|載入|激活|啟動|启动|运行|運行|执行|執行)';
const ZH_TRIGGERS = [
  '触发|觸發|当用户|當用戶|当.{1,40}?时|當.{1,40}?時',
  '[当當](?:用户|用戶|使用者)?(?:要求|需要|请求|請求|询问|詢問|想要|希望|提到)',
  `(?:[时時]|场景下?|場景下?|情况下|情況下)[，,]?${ZH_USE}`,
  `在[^。；;]{1,30}?(?:之前|之后|之後|以前|以后|以後)[^。；;]{0,12}?${ZH_RUN}`,
  '用于(?:用户|当用户)|用於(?:用戶|使用者|當用戶)',
  '适用于|適用於|适用场景|適用場景|适用情况|適用情況|使用场景|使用場景|使用时机|使用時機|何[时時]用|用于.{0,20}?场景',
].join('|');

/** Korean: "사용한다" / "사용하세요" (use), "…할 때" (when …), "쓴다" (use), "트리거" (trigger). */
const KO_TRIGGERS = '사용(?:한다|하세요|합니다|해|할)|할 때|될 때|일 때|쓴다|트리거';

/** Triggers in Chinese, Japanese and Korean, where words are not separated by spaces. */
const CJK_TRIGGERS = new RegExp([ZH_TRIGGERS, JA_TRIGGERS, KO_TRIGGERS].join('|'), 'u');

/**
 * …and in Russian, Spanish, German and French ("Активируется при …", "Используй, когда …", "Úsalo
 * cuando …", "Utiliza cuando se te pida …", "Verwenden, wenn …", "Utiliser lorsque …"), matched as
 * whole words.
 */
const OTHER_TRIGGERS =
  /(?<!\p{L})(?:активир\p{L}*|срабатывает|используй(?:те)?|используется|применяй(?:те)?|когда пользователь|úsal[oa]|utilízal[oa]|(?:usa|usar|utiliza|utilizar|úsese|utilícese)(?: (?:esta|este) (?:skill|habilidad|herramienta))? cuando|cuando (?:el usuario|la usuaria|se te pida|se le pida|se pida|se solicite|te pidan|le pidan)|verwende(?:n)?|wenn (?:der|die) (?:benutzer|nutzer)|utilise[rz]? (?:quand|lorsque|pour)|(?:quand|lorsque) l'utilisateur)(?!\p{L})/iu;

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
