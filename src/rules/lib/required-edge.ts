/**
 * The desk-check and bug-feedback rules share one check: once a configured state appears in the
 * graph, a configured direct transition must exist; report it at the config key that names it.
 */
import type { RuleContext } from '../../engine/rule.js';
import { hasEdge } from '../../graph/graph.js';
import { configKeyPlace } from './config-place.js';
import { firstMentionRelated } from './state-mention.js';

export interface RequiredEdge {
  /** the state whose presence in the graph activates the check */
  watched: string;
  from: string;
  to: string;
  /** the config key reported (the setting that names the missing end) */
  key: string;
}

export function reportMissingEdge<M extends string>(
  { project, graph, report }: RuleContext<M>,
  messageId: M,
  edge: RequiredEdge,
  data: Record<string, string>,
): void {
  if (!graph.out.has(edge.watched) || hasEdge(graph, edge.from, edge.to)) return;
  const related = firstMentionRelated(graph, edge.watched);
  report({ messageId, data, at: configKeyPlace(project, edge.key), related: related ? [related] : [], states: [edge.from] });
}
