/**
 * The one encoding used on every transport: UTF-8 JSON. The in-process bus goes
 * through it too, so the embedded default can never accept what NATS would not.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encode(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function decode(data: Uint8Array): unknown {
  return JSON.parse(decoder.decode(data));
}
