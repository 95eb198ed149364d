import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { withoutShownAsNothing } from '../../shared/contracts/shown-as-nothing.js';
import type { Completer, McpFeatures, SearchedValues } from './mcp-features.js';
import { asMcpError, mayRead } from './resource-handlers.js';
import type { ToolCall } from './tool.js';

/** At most this many values in one answer (the protocol's limit). */
const MAX_VALUES = 100;

/** Case- and accent-insensitive prefix match, then anywhere in the word; characters that show as nothing ignored, as names are compared. */
function fold(text: string): string {
  return withoutShownAsNothing(text.normalize('NFD')).replace(/\p{Diacritic}/gu, '').toLowerCase();
}

export function rankCompletions(values: readonly string[], typed: string): string[] {
  const t = fold(typed);
  const unique = [...new Set(values)];
  const starts = unique.filter((v) => fold(v).startsWith(t));
  const contains = unique.filter((v) => !fold(v).startsWith(t) && fold(v).includes(t));
  return [...starts, ...contains];
}

/** A completer's values for the text typed: its own list filtered by the text; a search's finds kept, those that begin or hold the text first. */
function inOrder(given: string[] | SearchedValues, typed: string): { values: string[]; more: boolean } {
  if (Array.isArray(given)) return { values: rankCompletions(given, typed), more: false };
  const found = [...new Set(given.found)];
  const ranked = rankCompletions(found, typed);
  return { values: [...ranked, ...found.filter((v) => !ranked.includes(v))], more: given.more };
}

/**
 * completion/complete for prompt arguments and resource template variables whose values
 * come from the workspace (pipeline and stage names, custom field keys and options). Any
 * other argument completes to nothing, as the protocol allows: an unknown prompt or template
 * too, since the conformance suite's completion-complete asks for a prompt of its own.
 */
export function installCompletionHandler(mcp: Server, features: McpFeatures, call: ToolCall): void {
  mcp.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    const context = request.params.context?.arguments ?? {};
    let completer: Completer | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = features.prompts.find((p) => p.name === ref.name && mayRead(p.scopes, call));
      completer = prompt?.arguments.find((a) => a.name === argument.name)?.complete;
    } else {
      const resource = features.resources.find((r) => r.uriTemplate === ref.uri && mayRead(r.scopes, call));
      completer = resource?.complete?.[argument.name];
    }
    let completed: { values: string[]; more: boolean };
    try {
      completed = inOrder(completer ? await completer(argument.value, call, context) : [], argument.value);
    } catch (error) {
      // A value the search refuses (a NUL character, say) is the client's mistake, not an internal error.
      throw asMcpError(error);
    }
    const { values, more } = completed;
    // A search that stopped at a page does not know the total: none is claimed, and hasMore says there are others.
    const hasMore = more || values.length > MAX_VALUES;
    return { completion: { values: values.slice(0, MAX_VALUES), ...(more ? {} : { total: values.length }), hasMore } };
  });
}
