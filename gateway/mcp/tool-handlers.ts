import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { z } from 'zod';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerDefinition } from '../../shared/auth/mcp-servers.js';
import { grantsScope, missingScope, Scope } from '../../shared/auth/scopes.js';
import { CrmError, InternalError } from '../../shared/errors.js';
import type { ResolvedCredential } from '../request-state.js';
import { missingScopeError, missingScopeHint, userMayBeGranted } from './missing-scope-remedy.js';
import type { ToolCall, ToolDefinition } from './tool.js';
import { nothingToChangeError } from './nothing-to-change.js';
import { refuseCursor } from './single-page-list.js';
import { descriptionOf, parseToolArguments, type OmittedBlanks } from './tool-arguments.js';
import { toolErrorResult } from './tool-error-result.js';
import { changedSinceResult } from './unchanged-since.js';
import { nameForIdMatches } from './name-for-id-matches.js';
import { wrongKindIdHint } from './wrong-kind-id-hint.js';

/** Whether a connection sees a tool: read tools always, tools that change data only if it may. */
export function listsTool(tool: ToolDefinition, credential: ResolvedCredential): boolean {
  return !tool.writes || tool.scopes.some((s) => grantsScope(credential.scopes, s));
}

/** The scope a connection lacks for a tool, or null. */
export function scopeMissingFor(tool: ToolDefinition, credential: ResolvedCredential) {
  return missingScope(credential.scopes, tool.scopes);
}

function listing(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputJsonSchema,
    outputSchema: tool.outputJsonSchema,
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** The error with its parameter called by the tool's name for it (ToolSpec.errorParams). */
function inToolTerms(error: CrmError, tool: ToolDefinition): CrmError {
  const param = error.details.param;
  const renamed = param === undefined ? undefined : tool.errorParams?.[param];
  return renamed ? new CrmError(error.code, error.message, { ...error.details, param: renamed }) : error;
}

/** What reads as not given on this tool (see OmittedBlanks): by whether it reads, creates, or changes what exists. */
export function omittedBlanksOf(tool: ToolDefinition): OmittedBlanks {
  return tool.op.readOnly ? 'null-or-blank' : tool.op.destructive ? 'none' : 'null';
}

/**
 * A refused argument's hint with what the argument takes, from its description: "expected
 * number, received string" for `position: "last"` does not say that 0 is first and a large
 * number means last. For an unknown argument the tool's notTaken hint, if it has one; undefined
 * (the usual hint) otherwise, or for an argument not described.
 */
function argumentHint(error: CrmError, tool: ToolDefinition, args: Record<string, unknown> | undefined): string | undefined {
  const param = error.details.param?.split('.')[0];
  if (error.code !== 'validation_failed' || !param) return undefined;
  // Own keys only: an argument named toString or constructor would find Object.prototype's function.
  if (error.message.startsWith('Unknown parameter')) return tool.notTaken && Object.hasOwn(tool.notTaken, param) ? tool.notTaken[param] : undefined;
  const field = (tool.inputSchema.shape as Record<string, z.ZodType | undefined>)[param];
  const described = field ? descriptionOf(field) : undefined;
  const about = described ? ` ${param}: ${described.replace(/\.?$/, '.')}` : '';
  // A null for an optional argument that cannot be cleared: small models fill every field they see, and "must not be null" did not say to leave it out.
  if (param === error.details.param && args?.[param] === null && field?.safeParse(undefined).success) {
    return `\`${param}\` cannot be cleared: leave it out to keep its current value, or give a new one.${about}`;
  }
  return about ? `Correct \`${error.details.param}\` and call again.${about}` : undefined;
}

/**
 * tools/call for one request, as the SDK's server and the direct path (direct-tool-call.ts)
 * both answer it: our own argument checks, worker errors as tool errors with a next step,
 * never stacks. Throws an McpError for a tool the server does not have.
 */
/** Each catalogue's tools by name, made once: a catalogue is a server's constant list. */
const TOOLS_BY_NAME = new WeakMap<readonly ToolDefinition[], ReadonlyMap<string, ToolDefinition>>();

function toolsByName(tools: readonly ToolDefinition[]): ReadonlyMap<string, ToolDefinition> {
  let byName = TOOLS_BY_NAME.get(tools);
  if (!byName) TOOLS_BY_NAME.set(tools, (byName = new Map(tools.map((t) => [t.name, t]))));
  return byName;
}

export function toolCaller(server: McpServerDefinition, tools: readonly ToolDefinition[], call: ToolCall, options: { validateReplies: boolean }) {
  const byName = toolsByName(tools);
  const checked = (tool: ToolDefinition, result: unknown) => {
    if (options.validateReplies && !tool.outputSchema.safeParse(result).success) {
      throw new InternalError(`The result of ${tool.name} does not match its output schema (request ${call.requestId}).`);
    }
  };
  /** The tool's answer from `run` (its arguments read strictly), or the tool error a refusal or failure is. */
  const answer = async <R>(params: CallParams, run: (tool: ToolDefinition, args: Record<string, unknown>) => Promise<R>): Promise<R | CallToolResult> => {
    const tool = byName.get(params.name);
    if (!tool) {
      const names = tools.filter((t) => listsTool(t, call.credential)).map((t) => t.name);
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${params.name}. The tools of this server: ${names.join(', ')}.`);
    }
    const missing = scopeMissingFor(tool, call.credential);
    if (missing) {
      const mayBeGranted = await userMayBeGranted(missing, call);
      return toolErrorResult(missingScopeError(tool.name, missing, server, call.credential, mayBeGranted), server.key, missingScopeHint(missing, call.credential, server, mayBeGranted));
    }
    let args: Record<string, unknown>;
    try {
      args = parseToolArguments(tool.inputSchema, params.arguments, { omitted: omittedBlanksOf(tool) });
    } catch (error) {
      // Already in the tool's terms: errorParams would rename an unknown `id` on create_stage to pipeline_id, the argument that was right.
      if (error instanceof CrmError) return toolErrorResult(error, server.key, argumentHint(error, tool, params.arguments));
      throw error;
    }
    const nothingToChange = nothingToChangeError(tool, args);
    if (nothingToChange) return toolErrorResult(nothingToChange, server.key, 'Call again with the fields to change; nothing was changed.');
    try {
      return await run(tool, args);
    } catch (caught) {
      const error = caught instanceof CrmError ? inToolTerms(caught, tool) : caught;
      if (error instanceof CrmError) {
        // A scope the worker found missing (a note's deal, a kind of event) gets the same remedy as one the tool declares.
        const scope = error.code === 'missing_scope' ? Scope.safeParse(error.details.required_scope) : null;
        if (scope?.success) return toolErrorResult(error, server.key, missingScopeHint(scope.data, call.credential, server, await userMayBeGranted(scope.data, call)));
        // Only unchanged_since makes such a tool's write conditional: the record changed since.
        if (error.code === 'precondition_failed' && tool.unchangedSince) return changedSinceResult(tool.unchangedSince, args, call, server.key);
        if (error.code === 'internal') return toolErrorResult(error, server.key, `Call again once; if it fails again, give the user the request id ${call.requestId}.`);
        const named = await nameForIdMatches(error, tool, params.arguments, call);
        return toolErrorResult(error, server.key, named ?? wrongKindIdHint(error, tool, tools, params.arguments, server.key));
      }
      throw error;
    }
  };
  const plain = async (tool: ToolDefinition, args: Record<string, unknown>): Promise<CallToolResult> => {
    const result = await tool.run(args, call);
    checked(tool, result);
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  };
  /** For a tool that splices its page (ToolDefinition.runEncoded), the worker's rows go into the text and the structured content as they came. */
  const spliced = async (tool: ToolDefinition, args: Record<string, unknown>): Promise<string> => {
    if (!tool.runEncoded) return JSON.stringify(await plain(tool, args));
    const structured = await tool.runEncoded(args, call);
    if (options.validateReplies) checked(tool, JSON.parse(structured));
    return `{"content":[{"type":"text","text":${JSON.stringify(structured)}}],"structuredContent":${structured}}`;
  };
  return {
    has: (name: string) => byName.has(name),
    call: (params: CallParams): Promise<CallToolResult> => answer(params, plain),
    /** The same answer as JSON text. */
    encoded: async (params: CallParams): Promise<string> => {
      const result = await answer(params, spliced);
      return typeof result === 'string' ? result : JSON.stringify(result);
    },
  };
}

type CallParams = { name: string; arguments?: Record<string, unknown> };

/**
 * tools/list and tools/call, with our own schemas and our own argument checks (the SDK's
 * McpServer would strip unknown arguments and answer "not found" for a tool the connection
 * may not see).
 */
export function installToolHandlers(mcp: Server, server: McpServerDefinition, tools: readonly ToolDefinition[], call: ToolCall, options: { validateReplies: boolean }): void {
  const caller = toolCaller(server, tools, call, options);
  mcp.setRequestHandler(ListToolsRequestSchema, (request) => {
    refuseCursor(request.params);
    return { tools: tools.filter((t) => listsTool(t, call.credential)).map(listing) };
  });
  mcp.setRequestHandler(CallToolRequestSchema, (request) => caller.call(request.params));
}
