import type { Scope } from '../../shared/auth/scopes.js';
import type { ToolCall } from './tool.js';

/**
 * Values a search of the workspace found for the typed text: already matched (by name, e-mail
 * or phone), so not filtered by the text again, and one page of them, `more` when there are others.
 */
export interface SearchedValues {
  found: string[];
  more: boolean;
}

/** Values for an argument, from the workspace: the value typed so far and the arguments given before it. */
export type Completer = (value: string, call: ToolCall, context: Record<string, string>) => Promise<string[] | SearchedValues>;

/**
 * A resource, or a family of them under a URI template (`crm://contacts/{id}`): read as JSON.
 * Without variables it is listed as one resource; with them, as a template, and `list` names
 * the instances worth listing (each pipeline, not each contact).
 */
export interface ResourceDefinition {
  name: string;
  title: string;
  description: string;
  uriTemplate: string;
  /** Any one of them allows reading it. */
  scopes: readonly Scope[];
  list?(call: ToolCall): Promise<{ uri: string; name: string; title?: string; description?: string }[]>;
  read(variables: Record<string, string>, call: ToolCall): Promise<unknown>;
  complete?: Record<string, Completer>;
}

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
  complete?: Completer;
}

/** A prompt: a message to start a task with, in the user's words, naming the tools to use. */
export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: readonly PromptArgument[];
  scopes: readonly Scope[];
  text(args: Record<string, string>, call: ToolCall): Promise<string>;
}

/** What a server offers beside its tools. */
export interface McpFeatures {
  resources: readonly ResourceDefinition[];
  prompts: readonly PromptDefinition[];
}

export const NO_FEATURES: McpFeatures = { resources: [], prompts: [] };
