/**
 * How to run the command line again, for a next step printed to be pasted as it is: inside
 * the project it is `npm run crm --` (npm sets npm_lifecycle_event for `npm run crm` and
 * `npm start`), where no `crm` is on the PATH; an installed or linked `crm` is run by name.
 */
export function crmInvocation(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_lifecycle_event ? 'npm run crm --' : 'crm';
}
