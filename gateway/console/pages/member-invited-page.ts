import type { OperationOutput } from '../../../shared/bus/operation.js';
import type { inviteMember } from '../../../shared/contracts/members.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { copyBlock } from '../copy-block.js';
import { noticeLine } from '../notice.js';
import { workspacePath } from '../workspace-url.js';

/** The temporary password, shown once; a reload goes back to the member list. */
export function memberInvitedPage(session: ConsoleSession, invited: OperationOutput<typeof inviteMember>, baseUrl: string): Html {
  const { member, temporary_password: temporaryPassword } = invited;
  const list = workspacePath(session, '/members');
  return consoleLayout({
    session,
    section: 'members',
    title: `${member.email} is now a member`,
    replaceUrl: list,
    body: temporaryPassword
      ? html`
          ${noticeLine(html`<strong>Give ${member.email} this temporary password now. You will not see it again.</strong>
            They will be asked to choose their own password when they sign in.`)}
          ${copyBlock('temporary-password', 'Temporary password', temporaryPassword)}
          <p>They sign in at <code>${baseUrl}/console</code>.</p>
          <p><a href="${list}">Back to members</a></p>`
      : html`
          ${noticeLine(
            invited.first_sign_in_pending
              ? `${member.email} has not signed in yet: they sign in with the temporary password of their first invitation to your organization, choose their own, and will find this workspace in their console.`
              : `${member.email} already has an account: they sign in with their own password and will find this workspace in their console.`,
          )}
          <p><a href="${list}">Back to members</a></p>`,
  });
}
