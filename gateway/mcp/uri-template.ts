/** The variables of a level-1 URI template (`crm://contacts/{id}`) in a URI, or null when it does not match (a malformed %-escape included: it names nothing). */
export function matchUriTemplate(template: string, uri: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/?#]+)';
  });
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return null;
  const variables: Record<string, string> = {};
  try {
    names.forEach((name, i) => (variables[name] = decodeURIComponent(match[i + 1]!)));
  } catch {
    return null;
  }
  return variables;
}

export function hasVariables(template: string): boolean {
  return /\{\w+\}/.test(template);
}
