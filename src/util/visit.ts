/** A depth-first, document-order visitor over mdast/unist trees (iterative: deep nesting cannot overflow the stack). */
import type { Node, Parent } from 'unist';

export function visit(tree: Node, type: string | null, fn: (node: Node, parent: Parent | null) => void | 'skip'): void {
  const stack: { node: Node; parent: Parent | null }[] = [{ node: tree, parent: null }];
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    if ((type === null || node.type === type) && fn(node, parent) === 'skip') continue;
    const children = (node as Parent).children;
    if (Array.isArray(children)) {
      for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, parent: node as Parent });
    }
  }
}
