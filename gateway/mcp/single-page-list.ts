import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * Every list of these servers fits on one page: no answer carries a nextCursor, so a cursor a
 * client sends was not given by us. The protocol asks for -32602 there; answering the first page
 * again would read as more of the same list.
 */
export function refuseCursor(params: { cursor?: string } | undefined): void {
  if (params?.cursor !== undefined) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor: this list has one page and gives no cursor; call again without cursor.');
}
