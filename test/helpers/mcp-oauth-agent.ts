import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

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
