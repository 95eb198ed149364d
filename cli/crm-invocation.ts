import { PACKAGE_NAME } from '../shared/package-version.js';

/**
 * How to run the command line again, for a next step printed to be pasted as it is: inside
 * this project it is `npm run crm --` (npm sets npm_package_name for `npm run crm` and
 * `npm start`), where no `crm` is on the PATH; an installed or linked `crm`, from a shell or
 * from another project's npm script, is run by name.
 */
export function crmInvocation(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_package_name === PACKAGE_NAME ? 'npm run crm --' : 'crm';
}
