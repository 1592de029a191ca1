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
 *
 * Each phrase is a regular expression of its own, compiled the first time a description holds
 * every word it `needs` (lower case; words without which it cannot match), rather than one
 * alternation of them all: V8 took 60–100 ms to compile the alternation (case-insensitive Unicode,
 * `\p{L}` classes and counted repeats), a cost every run paid, a cached one too
 * (docs/performance.md). A description matches when any phrase does, as it matched the alternation.
 */
const TRIGGER_PHRASES: readonly { needs: readonly string[]; phrase: string }[] = [
  {
    needs: ['use'],
    phrase:
      'use (?:it |them |(?:this |the )?skill )?(?:(?:immediately|right|only|offline) )?(?:when|whenever|for|if|to|after|before|during|once|on|with|at)',
  },
  // "Use `analysis-agent` for …", "Use an independently assigned `review-agent` on …": who, then when
  { needs: ['use', '`'], phrase: 'use (?:an? |the )?(?:[\\p{L}-]+ ){0,2}`[^`]+` (?:when|whenever|for|if|to|after|before|during|on|with)' },
  { needs: ['use this'], phrase: 'use this' },
  { needs: ['use', ' as '], phrase: 'use (?:it |this skill )?as (?:an?|the) ' },
  { needs: ['used'], phrase: 'used (?:when|for|if|to|during|while)' },
  { needs: ['appl'], phrase: 'appl(?:y|ies) (?:when|to)' },
  // "Run after /deliver-use-case", "Runs only when …"
  { needs: ['run'], phrase: 'runs? (?:only |automatically )?(?:when|whenever|after|before|once)' },
  { needs: ['invoke'], phrase: 'invoked? (?:(?:this skill|it) )?(?:when|for|if|before|after|at)' },
  { needs: ['load'], phrase: 'load (?:(?:this skill|it) )?(?:when|whenever|for|if|before|after)' },
  // "invoked by /sprint-deliver", "must only be invoked explicitly via /deliver-use-case"
  { needs: ['invoked'], phrase: 'invoked (?:(?:only|explicitly|directly|manually|automatically) ){0,2}(?:by|from|via|through)' },
  { needs: [], phrase: '(?:fires|runs|dispatched) (?:on|when|from)' },
  { needs: ['always'], phrase: 'always[- ]on' },
  { needs: ['trigger'], phrase: 'trigger(?:s|ed)?' },
  { needs: ['requires'], phrase: 'requires' },
  { needs: ['activat'], phrase: 'activat(?:e|es|ed|ion)' },
  { needs: ['when the user'], phrase: 'when the user' },
  { needs: ['when'], phrase: 'when (?:the )?(?:agent|assistant|claude|codex|model) (?:needs|is asked|wants)' },
  { needs: ['when'], phrase: 'when (?:a|the) (?:request|task|question|prompt|conversation|user request)' },
  { needs: ['when you'], phrase: 'when you (?:need|want)' },
  // "when building …", "when documenting or superseding decisions": an activity, named by its -ing form
  { needs: ['when', 'ing'], phrase: 'when (?!(?:some|no|any|every)thing\\b|string\\b)\\p{L}{2,}ing\\b' },
  { needs: ['when'], phrase: 'when (?:setting up|asked)' },
  { needs: ['for'], phrase: 'for (?:any|all) (?:tasks?|requests?|questions?) (?:that|about|involving|related)' },
  { needs: ['whenever'], phrase: 'whenever' },
  // a condition stated as a clause: "… when backlogs exist but the queue is stale", "when an idea has been discussed"
  {
    needs: ['when'],
    phrase:
      'when (?!to\\b)(?:a|an|the|your|its|their|this|these|some|any|(?:[\\p{L}\\d+-]+,? ){1,5}(?:is|are|was|were|exists?|has|have|should|needs?|must|fails?|changes?|lacks?|already|asks?|mentions?|wants?|says?|requests?|opens?))\\b',
  },
  { needs: [], phrase: '(?:after|before) (?:a|an|the|each|every|any) ' },
  // "… after /deliver-use-case or before `/sprint-complete`": the command it follows or precedes
  { needs: ['/'], phrase: '(?:after|before) [`\'"]?/[\\p{L}\\d][\\w:-]*' },
];

/** The phrases' regular expressions, each made when first needed. */
const TRIGGERS: (RegExp | undefined)[] = [];

/**
 * Whether `text` (white space collapsed to one space) says when to use the skill in one of
 * TRIGGER_PHRASES. A phrase is tried only when the text, in lower case, holds every word it needs:
 * case-insensitive matching equates a letter with its lower case, and also `ſ` with `s` (Unicode
 * case folding), which the lower-cased text therefore spells as `s`.
 */
function hasTrigger(text: string): boolean {
  const lower = lowerCase(text);
  for (let i = 0; i < TRIGGER_PHRASES.length; i++) {
    const { needs, phrase } = TRIGGER_PHRASES[i]!;
    if (!needs.every((w) => lower.includes(w))) continue;
    const re = (TRIGGERS[i] ??= new RegExp(`\\b(?:${phrase})\\b`, 'iu'));
    if (re.test(text)) return true;
  }
  return false;
}

/** `text` in lower case, `ſ` spelled `s`: what a case-insensitive match equates (see hasTrigger). */
const lowerCase = (text: string): string => text.toLowerCase().replace(/ſ/gu, 's');

/**
 * The scripts whose descriptions the rule reads: Latin (English, and the phrases of Spanish, German
 * and French below) and Cyrillic (Russian). A description mostly written in another script —
 * Chinese, Japanese, Korean, Thai, Arabic … — is not judged: whether it says when to use the skill
 * cannot be told from a list of words (in the held-out repositories of round 23, 80 of the 83 false
 * warnings were Chinese and Japanese descriptions that said when in words no list had).
 */
const READ_SCRIPT = /[\p{Script=Latin}\p{Script=Cyrillic}]/gu;
const LETTER = /\p{L}/gu;

/** Whether at least 80 % of the letters of `text` are of a script the rule reads (READ_SCRIPT). */
function inReadScript(text: string): boolean {
  const letters = text.match(LETTER)?.length ?? 0;
  return letters > 0 && (text.match(READ_SCRIPT)?.length ?? 0) >= 0.8 * letters;
}

/**
 * …and in Russian, Spanish, German and French ("Активируется при …", "Используй, когда …", "Úsalo
 * cuando …", "Utiliza cuando se te pida …", "Verwenden, wenn …", "Utiliser lorsque …"), matched as
 * whole words.
 */
const OTHER_TRIGGERS =
  /(?<!\p{L})(?:активир\p{L}*|срабатывает|используй(?:те)?|используется|применяй(?:те)?|когда пользователь|úsal[oa]|utilízal[oa]|(?:usa|usar|utiliza|utilizar|úsese|utilícese)(?: (?:esta|este) (?:skill|habilidad|herramienta))? cuando|cuando (?:el usuario|la usuaria|se te pida|se le pida|se pida|se solicite|te pidan|le pidan)|verwende(?:n)?|wenn (?:der|die) (?:benutzer|nutzer)|utilise[rz]? (?:quand|lorsque|pour)|(?:quand|lorsque) l'utilisateur)(?!\p{L})/iu;

/** Words without one of which OTHER_TRIGGERS cannot match (lower case: see hasTrigger), so it is compiled only when needed. */
const OTHER_NEEDS = [
  'активир',
  'срабатывает',
  'используй',
  'используется',
  'применяй',
  'когда пользователь',
  'úsal',
  'utilízal',
  'cuando',
  'verwende',
  'wenn',
  'utilise',
  "l'utilisateur",
];

export default defineRule({
  meta: {
    code: 'skill-description-missing-trigger',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
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
      // written in a script the rule cannot read: not judged
      if (!inReadScript(d.text)) continue;
      if (hasTrigger(d.text.replace(/\s+/gu, ' '))) continue;
      const lower = lowerCase(d.text);
      if (OTHER_NEEDS.some((w) => lower.includes(w)) && OTHER_TRIGGERS.test(d.text)) continue;
      report({ messageId: 'missing', data: {}, at: entryPlace(skill, d.entry), skill: skill.name });
    }
  },
});
