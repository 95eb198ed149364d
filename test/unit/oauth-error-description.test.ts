import t from 'tap';
import { oauthErrorDescription } from '../../gateway/oauth/error-description.js';

/** RFC 6749 §4.1.2.1 and §5.2: error_description is %x20-21 / %x23-5B / %x5D-7E. */
const ALLOWED = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

t.test('quotes, backslashes, typographic marks and accents become what RFC 6749 allows; plain text stays', async (t) => {
  t.equal(oauthErrorDescription('response_type "token" is not supported'), "response_type 'token' is not supported");
  t.equal(oauthErrorDescription('without " or \\.'), "without ' or /.");
  t.equal(oauthErrorDescription('Authorization needed … send “Bearer” — or ‘Basic’'), "Authorization needed ... send 'Bearer' - or 'Basic'");
  t.equal(oauthErrorDescription('client_name "Café\tMüller"'), "client_name 'Cafe?Muller'");
  t.equal(oauthErrorDescription('redirect_uri must be https: [a] {b}'), 'redirect_uri must be https: [a] {b}');
  for (const text of ['名前', '\u202eevil', 'a\nb', '😀']) t.match(oauthErrorDescription(text), ALLOWED, JSON.stringify(text));
});
