/**
 * Where each violation of a request body is in the body's text (through jsonc-parser's tree): the
 * value that breaks its rule, or the property that is not documented. Part of the catalogue's heavy
 * half, so the parser loads with the catalogue and not at activation.
 */
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import type { LocatedViolation, SchemaViolation } from './types';

function nodeAt(root: JsonNode, pointer: string): JsonNode | undefined {
  // The validator's instance paths are plain JSON pointers (not URI-encoded).
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: JsonNode | undefined = root;
  for (const token of tokens) {
    if (!node) return undefined;
    node = findNodeAtLocation(node, [node.type === 'array' ? Number(token) : token]);
  }
  return node;
}

export function locateViolations(text: string, violations: readonly SchemaViolation[]): LocatedViolation[] {
  const root = parseTree(text);
  return violations.map((violation) => {
    const node = root && nodeAt(root, violation.pointer);
    if (!node) return { ...violation, offset: 0, length: 1 };
    const property = node.parent?.type === 'property' && violation.rule === 'additionalProperties';
    const offset = property ? node.parent!.offset : node.offset;
    const length = node.type === 'object' || node.type === 'array' ? 1 : Math.max(1, node.length);
    return { ...violation, offset, length };
  });
}
