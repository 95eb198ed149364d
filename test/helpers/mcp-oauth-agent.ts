import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { authorizeWithForms, FormBrowser } from './oauth-forms.js';

/** Nothing listens there: tests read the code from the redirect instead of following it. */
export const AGENT_REDIRECT = 'http://127.0.0.1:9/oauth/callback';

/**
 * An MCP client's OAuth side, kept in memory: the SDK's client registers through it, saves
 * tokens in it, and "sends the user" to the authorization URL, which the test then drives
 * (in Chromium, or through the forms).
 */
export class TestAgent implements OAuthClientProvider {
  private info?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';
  authorizationUrl?: URL;

  constructor(
    private readonly name: string,
    private readonly redirect = AGENT_REDIRECT,
  ) {}

  get redirectUrl(): string {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [this.redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  /** Drops the tokens and keeps the registration: re-authorizing without removing the server. */
  forgetTokens() {
    this.saved = undefined;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * The member signs the agent in to one tool server: the SDK's auth() registers and sends the
 * user to the authorization URL, the real sign-in and consent forms answer it, and auth()
 * exchanges the code. The agent then holds its tokens (`agent.tokens()`).
 */
export async function signInAgent(
  agent: TestAgent,
  o: { baseUrl: string; server: 'crm' | 'studio'; email: string; password: string; allowChanges: boolean; browser?: FormBrowser },
): Promise<void> {
  const serverUrl = new URL(`${o.baseUrl}/mcp/${o.server}`);
  if ((await auth(agent, { serverUrl })) !== 'REDIRECT') throw new Error('the SDK did not send the user to sign in');
  const url = agent.authorizationUrl;
  if (!url) throw new Error('no authorization URL');
  const { code } = await authorizeWithForms({
    url: url.href,
    baseUrl: o.baseUrl,
    clientId: '',
    redirectUri: '',
    server: o.server,
    challenge: '',
    email: o.email,
    password: o.password,
    allowChanges: o.allowChanges,
    browser: o.browser ?? new FormBrowser(),
  });
  if ((await auth(agent, { serverUrl, authorizationCode: code })) !== 'AUTHORIZED') throw new Error('the code was not exchanged');
}
