import { z } from 'zod';
import { grantsScope, Scope } from '../../../shared/auth/scopes.js';
import { WhoAmI, whoAmI } from '../../../shared/contracts/whoami.js';
import { formatLocalDate, localDateOf } from '../../../shared/time/zoned-day.js';
import { defineTool } from '../tool.js';

export const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    "The workspace and organization this connection acts in, who authorized it, its scopes, whether it may change data on this server (and which scopes it lacks for that), the kind of credential, whether it reads company-wide or only what its user owns, the current time, today's date in the workspace time zone, and that time zone in which days and ranges such as last_week are read.",
  op: whoAmI,
  input: {},
  output: WhoAmI.extend({
    can_write: z.boolean().describe("Whether this connection may change data through this server's tools"),
    missing_write_scopes: z.array(Scope).describe("This server's write scopes the connection lacks; empty when it may write everything"),
    now: z.string().describe('The current time, ISO 8601 UTC: the anchor for "today", "last week" and other relative dates'),
    today: z.string().describe("Today's date in the workspace time zone (YYYY-MM-DD): the day a date filter means by today, which near midnight is not the UTC date of now"),
  }),
  result: (who, server) => {
    const missing = server.writeScopes.filter((s) => !grantsScope(who.scopes, s));
    const now = new Date();
    return {
      ...who,
      can_write: missing.length < server.writeScopes.length,
      missing_write_scopes: missing,
      now: now.toISOString(),
      today: formatLocalDate(localDateOf(now, who.time_zone)),
    };
  },
});
