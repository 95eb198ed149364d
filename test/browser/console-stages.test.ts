import t from 'tap';
import type { Deal } from '../../shared/contracts/deals.js';
import type { Event } from '../../shared/contracts/events.js';
import type { Pipeline } from '../../shared/contracts/pipelines.js';
import type { ListPage } from '../helpers/api-types.js';
import { consoleBrowser, submitForm } from '../helpers/browser.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { check, signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Stages in the console, in headless Chromium: moving a deal between the stages of its pipeline
 * from its page (the move is the API's, a reload does not move it again, a stage archived
 * meanwhile is refused beside the list), and an administrator adding, archiving and restoring
 * stages; a member who may only read deals gets neither.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Stagecraft', workspace: 'Sales', email: 'sam@stagecraft.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
await stack.addMember(wsId, 'rita@stagecraft.test', ['deals.read'], 'all');
const api = client(base, await stack.token(wsId, ['deals:write', 'schema:write', 'events:read']));
const pipeline = (await api.get<ListPage<Pipeline>>('/v1/pipelines')).body.data.find((p) => p.is_default);
if (!pipeline) throw new Error('no default pipeline');
const [first, second, third] = pipeline.stages;
if (!first || !second || !third) throw new Error('the default pipeline has fewer than three stages');
const dealId = (await api.post<{ id: string }>('/v1/deals', { name: 'Stage door', stage_id: first.id })).body.id;

const { newPage, cspReports } = await consoleBrowser(t);

t.test('a member who may write deals moves one to another stage', async (t) => {
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD);
  await page.goto(`${base}${ws}/deals/${dealId}`);
  const stage = page.getByLabel('Stage', { exact: true });
  t.equal(await stage.inputValue(), first.id, 'the current stage is chosen');
  await check(t, page, 'console-deal-stage');

  await stage.selectOption({ label: second.name });
  t.equal(await submitForm(page, 'Move deal'), 303);
  t.equal(new URL(page.url()).searchParams.get('notice'), 'moved');
  t.match(await page.getByRole('status').innerText(), /moved/);
  t.match(await page.locator('dl.facts').innerText(), new RegExp(`Stage\\s+${second.name}`), 'the page shows the new stage');
  t.equal((await api.get<Deal>(`/v1/deals/${dealId}`)).body.stage_id, second.id, 'the API has it too');
  const changes = (await api.get<ListPage<Event>>(`/v1/events?object_id=${dealId}&type=deal.stage_changed`)).body.data;
  t.equal(changes.length, 1, 'one stage change');
  t.match(changes[0]?.actor, { kind: 'console_user', name: admin.user.email });

  // Posting the same stage again would change nothing either: what counts is that a reload posts nothing.
  const posts: string[] = [];
  page.on('request', (request) => void (request.method() === 'POST' && posts.push(request.url())));
  await page.reload();
  t.same(posts, [], 'a reload sends no form again');

  // The page was read before the stage was archived: the move is refused, saying why, and nothing changes.
  t.equal((await api.send('DELETE', `/v1/pipelines/${pipeline.id}/stages/${third.id}`)).status, 200);
  await stage.selectOption({ label: third.name });
  t.equal(await submitForm(page, 'Move deal'), 400);
  const archivedRefusal = await page.getByRole('alert').innerText();
  t.match(archivedRefusal, new RegExp(`^Stage: the stage "${third.name}" is archived`), 'named by its label on the page');
  t.match(archivedRefusal, /; restore it with its Restore button on the pipelines page/, 'the restore in the console\'s terms, told to the administrator who can');
  t.notMatch(archivedRefusal, /PATCH|archived: false|update_stage/, 'not the API\'s');
  t.equal(await page.getByLabel('Stage', { exact: true }).getAttribute('aria-invalid'), 'true', 'the list is marked');
  t.equal((await api.get<Deal>(`/v1/deals/${dealId}`)).body.stage_id, second.id, 'the deal stayed');
  t.same(await page.getByLabel('Stage', { exact: true }).locator('option').allInnerTexts(), pipeline.stages.filter((s) => s !== third).map((s) => s.name), 'an archived stage is no longer offered');
});

t.test('an administrator adds a stage to a pipeline and archives one after a confirmation', async (t) => {
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD);
  const single = (await api.post<Pipeline>('/v1/pipelines', { name: 'Renewals', stages: ['Due'] })).body;
  await page.goto(`${base}${ws}/deals`);
  await page.getByRole('link', { name: "Change the pipelines' stages" }).click();
  await page.getByRole('heading', { name: 'Pipelines and stages', level: 1 }).waitFor();
  await check(t, page, 'console-pipelines');

  const newStage = page.getByLabel(`New stage in ${pipeline.name}`);
  await newStage.fill('S'.repeat(101));
  t.equal(await submitForm(page, `Add stage to ${pipeline.name}`), 400, 'a name past 100 characters is refused');
  t.match(await page.getByRole('alert').innerText(), new RegExp(`^New stage in ${pipeline.name}: must be at most 100 characters`), 'named by its label');
  t.equal(await newStage.inputValue(), 'S'.repeat(101), 'what was typed is kept');
  t.equal(await newStage.getAttribute('aria-invalid'), 'true');
  t.equal(await page.getByLabel('New stage in Renewals').getAttribute('aria-invalid'), null, "the other pipeline's form is not");

  await newStage.fill('Proposal');
  t.equal(await submitForm(page, `Add stage to ${pipeline.name}`), 303);
  t.match(await page.getByRole('status').innerText(), /added/);
  const section = page.getByRole('region', { name: pipeline.name });
  t.match(await section.getByRole('listitem').last().innerText(), /^Proposal/, 'listed last');
  const proposal = (await api.get<Pipeline>(`/v1/pipelines/${pipeline.id}`)).body.stages.find((s) => s.name === 'Proposal');
  t.equal(proposal?.archived, false, 'and in the API');

  await page.getByRole('link', { name: `Archive Proposal of ${pipeline.name}` }).click();
  await page.getByRole('heading', { name: `Archive the stage "Proposal" of ${pipeline.name}?` }).waitFor();
  t.equal((await api.get<Pipeline>(`/v1/pipelines/${pipeline.id}`)).body.stages.find((s) => s.name === 'Proposal')?.archived, false, 'nothing archived before the confirmation');
  t.equal(await submitForm(page, 'Archive stage'), 303);
  t.match(await page.getByRole('status').innerText(), /archived/);
  t.match(await section.innerText(), /Archived: .*Proposal/, 'named apart from the active stages');
  t.equal(await section.getByRole('listitem').filter({ hasText: 'Proposal' }).count(), 0);
  t.equal((await api.get<Pipeline>(`/v1/pipelines/${pipeline.id}`)).body.stages.find((s) => s.name === 'Proposal')?.archived, true);

  // A pipeline keeps one active stage: refused at that pipeline, nothing archived.
  await page.getByRole('link', { name: 'Archive Due of Renewals' }).click();
  t.equal(await submitForm(page, 'Archive stage'), 409);
  t.match(await page.getByRole('region', { name: 'Renewals' }).getByRole('alert').innerText(), /at least one active stage/);
  t.equal((await api.get<Pipeline>(`/v1/pipelines/${single.id}`)).body.stages[0]?.archived, false);

  // Before, a pipeline id the page does not list (past 64 characters, say) was a 400 with no reason shown anywhere.
  const forms = await signInToConsole(base, wsId, admin.user.email, TEST_PASSWORD);
  const unknown = await forms.post(`/pipelines/${'p'.repeat(70)}/stages`, { name: 'Lost' });
  t.equal(unknown.status, 404, 'a stage for a pipeline the workspace does not have: not found');
  t.match(await unknown.text(), /No such pipeline/);
  // Likewise a move with a position that is none, to a pipeline the page does not list: before, a 400 that said nothing.
  const unknownMove = await forms.post(`/pipelines/${'p'.repeat(70)}/stages/stg_x/position`, { position: 'up' });
  t.equal(unknownMove.status, 404);
  t.match(await unknownMove.text(), /No such pipeline/);
});

t.test('an administrator renames a stage and moves it up and down, with the keyboard too', async (t) => {
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD);
  const onboarding = (await api.post<Pipeline>('/v1/pipelines', { name: 'Onboarding', stages: ['Kickoff', 'Setup', 'Live'] })).body;
  const stageNames = async () => (await api.get<Pipeline>(`/v1/pipelines/${onboarding.id}`)).body.stages.filter((s) => !s.archived).map((s) => s.name);
  await page.goto(`${base}${ws}/pipelines`);
  await page.getByRole('link', { name: 'Rename Setup of Onboarding' }).click();
  await page.getByRole('heading', { name: 'Rename the stage "Setup" of Onboarding', level: 1 }).waitFor();
  const name = page.getByLabel('Name', { exact: true });
  t.equal(await name.inputValue(), 'Setup', 'the current name is filled in');
  await check(t, page, 'console-stage-rename');

  await name.fill('kickoff');
  t.equal(await submitForm(page, 'Save name'), 409, "another stage's name (case ignored) is refused");
  // Named as the stage that has it spells it, not as typed: the two may differ in case and spacing.
  t.match(await page.getByRole('alert').innerText(), /already has a stage called "Kickoff"/);
  t.equal(await name.inputValue(), 'kickoff', 'what was typed is kept');
  t.equal(await name.getAttribute('aria-invalid'), 'true');
  t.match(await name.getAttribute('aria-describedby'), /stage-error/, 'the reason is read out at the field');
  await name.fill('<b>S</b>'.repeat(20));
  t.equal(await submitForm(page, 'Save name'), 400);
  t.match(await page.getByRole('alert').innerText(), /^Name: must be at most 100 characters/, 'named by its label on the page');
  t.same(await stageNames(), ['Kickoff', 'Setup', 'Live'], 'nothing renamed');

  await name.fill('Set <up>');
  t.equal(await submitForm(page, 'Save name'), 303);
  t.match(await page.getByRole('status').innerText(), /renamed/);
  t.same(await stageNames(), ['Kickoff', 'Set <up>', 'Live'], 'renamed in the API');
  const section = page.getByRole('region', { name: 'Onboarding' });
  t.match(await section.getByRole('listitem').nth(1).innerText(), /^Set <up>/, 'shown as typed, escaped');

  t.equal(await section.getByRole('button', { name: 'Move up Kickoff of Onboarding' }).count(), 0, 'the first stage cannot move up');
  t.equal(await section.getByRole('button', { name: 'Move down Live of Onboarding' }).count(), 0, 'nor the last one down');
  t.equal(await submitForm(page, 'Move up Set <up> of Onboarding'), 303);
  t.match(await page.getByRole('status').innerText(), /moved/);
  t.same(await stageNames(), ['Set <up>', 'Kickoff', 'Live'], 'moved in the API');
  t.same((await section.getByRole('listitem').allInnerTexts()).map((text) => text.split(' · ')[0]?.trim()), ['Set <up>', 'Kickoff', 'Live'], 'and on the page');

  // Without a mouse: the button takes the focus and Enter presses it (a form, no script).
  await section.getByRole('button', { name: 'Move down Kickoff of Onboarding' }).focus();
  await Promise.all([page.waitForEvent('framenavigated'), page.keyboard.press('Enter')]);
  await page.waitForLoadState();
  t.same(await stageNames(), ['Set <up>', 'Live', 'Kickoff']);
  const posts: string[] = [];
  page.on('request', (request) => void (request.method() === 'POST' && posts.push(request.url())));
  await page.reload();
  t.same(posts, [], 'a reload moves nothing again');
  t.same(await stageNames(), ['Set <up>', 'Live', 'Kickoff']);

  // The page was read before Live was archived: the move is refused at its pipeline, nothing moves.
  const live = onboarding.stages.find((s) => s.name === 'Live');
  t.equal((await api.send('DELETE', `/v1/pipelines/${onboarding.id}/stages/${live?.id}`)).status, 200);
  t.equal(await submitForm(page, 'Move down Live of Onboarding'), 409);
  const refusal = await section.getByRole('alert').innerText();
  t.match(refusal, /"Live" is archived \(someone archived it meanwhile\): restore it with its Restore button/, 'said in the console\'s terms');
  t.notMatch(refusal, /archived: false/, 'not in the API\'s (a field a console user cannot send)');
  t.same(await stageNames(), ['Set <up>', 'Kickoff']);
  t.same(cspReports, [], 'no CSP violation');
});

t.test('an administrator adds a pipeline with its first stages', async (t) => {
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD);
  await page.goto(`${base}${ws}/pipelines`);
  const name = page.getByLabel('Pipeline name');
  const stages = page.getByLabel('Stages', { exact: true });
  const typed = `Intro\n\n${'X'.repeat(101)}\nSigned`;
  await name.fill('Partners');
  await stages.fill(typed);
  t.equal(await submitForm(page, 'Add pipeline'), 400);
  t.match(await page.getByRole('alert').innerText(), /^Stages, line 3: must be at most 100 characters/, 'named by its label and the line it is on');
  t.equal(await stages.getAttribute('aria-invalid'), 'true');
  t.match(await stages.getAttribute('aria-describedby'), /new-pipeline-error/);
  t.equal(await stages.inputValue(), typed, 'what was typed is kept');
  t.equal(await name.inputValue(), 'Partners');
  await check(t, page, 'console-new-pipeline-refused');

  await name.fill(pipeline.name);
  await stages.fill('Intro\nSigned\n');
  t.equal(await submitForm(page, 'Add pipeline'), 409, "another pipeline's name is refused");
  t.match(await page.getByRole('alert').innerText(), new RegExp(`A pipeline called "${pipeline.name}" already exists`));
  t.equal(await name.getAttribute('aria-invalid'), 'true');
  t.equal(await stages.getAttribute('aria-invalid'), null);
  const names = async () => (await api.get<ListPage<Pipeline>>('/v1/pipelines')).body.data.map((p) => p.name);
  t.notOk((await names()).includes('Partners'), 'nothing added');

  await name.fill('<i>Partners</i>');
  await page.getByLabel(/Make it the default pipeline/).check();
  t.equal(await submitForm(page, 'Add pipeline'), 303);
  t.match(await page.getByRole('status').innerText(), /pipeline was added/);
  const partners = (await api.get<ListPage<Pipeline>>('/v1/pipelines')).body.data.find((p) => p.name === '<i>Partners</i>');
  t.same(partners?.stages.map((s) => s.name), ['Intro', 'Signed'], 'its stages in order, the blank line none');
  t.equal(partners?.is_default, true, 'and the default now');
  t.match(await page.getByRole('region', { name: '<i>Partners</i> (default)' }).getByRole('listitem').allInnerTexts(), [/^Intro/, /^Signed/], 'shown as typed, escaped');
  t.equal(await page.getByLabel('Pipeline name').inputValue(), '', 'the form is empty again');
  const posts: string[] = [];
  page.on('request', (request) => void (request.method() === 'POST' && posts.push(request.url())));
  await page.reload();
  t.same(posts, [], 'a reload adds nothing again');
  t.equal((await names()).filter((n) => n === '<i>Partners</i>').length, 1);
  t.same(cspReports, [], 'no CSP violation');
});

t.test('an administrator renames a pipeline, a refused name kept as typed, and makes another one the default', async (t) => {
  const other = (await api.post<Pipeline>('/v1/pipelines', { name: 'Upsell', stages: ['Pitch', 'Closed'] })).body;
  const current = (await api.get<ListPage<Pipeline>>('/v1/pipelines')).body.data;
  const defaultNow = current.find((p) => p.is_default);
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/pipelines`);
  await page.getByRole('link', { name: 'Rename the pipeline Upsell' }).click();
  await page.getByRole('heading', { name: 'Rename the pipeline Upsell' }).waitFor();
  await check(t, page, 'console-pipeline-rename');

  const name = page.getByLabel('Pipeline name');
  await name.fill(pipeline.name);
  t.equal(await submitForm(page, 'Save name'), 409, "another pipeline's name is refused");
  t.match(await page.getByRole('alert').innerText(), new RegExp(`A pipeline called "${pipeline.name}" already exists`));
  t.equal(await name.getAttribute('aria-invalid'), 'true', 'the name is marked');
  t.equal(await name.inputValue(), pipeline.name, 'what was typed is kept');
  t.equal((await api.get<Pipeline>(`/v1/pipelines/${other.id}`)).body.name, 'Upsell', 'nothing changed');

  await name.fill('Upsell and cross-sell');
  t.equal(await submitForm(page, 'Save name'), 303);
  t.match(await page.getByRole('status').innerText(), /pipeline was renamed/);
  t.equal((await api.get<Pipeline>(`/v1/pipelines/${other.id}`)).body.name, 'Upsell and cross-sell');

  t.equal(await page.getByRole('button', { name: `Make default: ${defaultNow?.name ?? ''}` }).count(), 0, 'no button at the default itself');
  t.equal(await submitForm(page, 'Make default: Upsell and cross-sell'), 303);
  t.match(await page.getByRole('status').innerText(), /now the default/);
  const after = (await api.get<ListPage<Pipeline>>('/v1/pipelines')).body.data;
  t.same(after.filter((p) => p.is_default).map((p) => p.id), [other.id], 'the one default, the API says so too');
  t.equal(await page.getByRole('region', { name: 'Upsell and cross-sell (default)' }).count(), 1, 'and the page');
  const changes = (await api.get<ListPage<Event>>(`/v1/events?object_id=${other.id}&type=pipeline.updated`)).body.data;
  t.same(changes.map((e) => e.actor.kind), ['console_user', 'console_user'], 'the rename and the new default, each recorded once, by the console user');
  await check(t, page, 'console-pipelines-default');

  // Put the first default back: the tests after this one read it as the default.
  t.equal(await submitForm(page, `Make default: ${defaultNow?.name ?? ''}`), 303);
  t.same(cspReports, [], 'no CSP violation');
});

t.test('an administrator restores an archived stage with its button, its deals with it; a name taken meanwhile is refused at its pipeline', async (t) => {
  const revival = (await api.post<Pipeline>('/v1/pipelines', { name: 'Revival', stages: ['Lead', 'Pitch', 'Won'] })).body;
  const [lead, pitch] = revival.stages;
  if (!lead || !pitch) throw new Error('Revival has fewer than two stages');
  const kept = (await api.post<Deal>('/v1/deals', { name: 'Kept in pitch', pipeline_id: revival.id, stage_id: pitch.id })).body;
  for (const stage of [pitch, lead]) t.equal((await api.send('DELETE', `/v1/pipelines/${revival.id}/stages/${stage.id}`)).status, 200);
  t.equal((await api.post(`/v1/pipelines/${revival.id}/stages`, { name: 'LEAD' })).status, 201, "an active stage takes Lead's name");
  const stagesNow = async () => (await api.get<Pipeline>(`/v1/pipelines/${revival.id}`)).body.stages.map((s) => [s.name, s.position, s.archived]);
  const restoreEvents = async () => (await api.get<ListPage<Event>>(`/v1/events?object_id=${pitch.id}&type=stage.updated`)).body.data;

  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/pipelines`);
  const section = page.getByRole('region', { name: 'Revival' });
  t.match(await section.innerText(), /Archived: Pitch · Restore, Lead · Restore/, 'each archived stage with its button');
  // "Make default" was a form inside a <p>, which the parser closes early: "Rename ·" dangled, an empty paragraph after.
  t.equal(await page.locator('main p:empty').count(), 0, 'no paragraph left empty by a form inside it');
  t.match(await section.getByRole('link', { name: 'Rename the pipeline Revival' }).locator('xpath=..').innerText(), /Rename · Make default/, 'Make default beside Rename');
  await check(t, page, 'console-pipelines-archived');

  const before = await stagesNow();
  t.equal(await submitForm(page, 'Restore Lead of Revival'), 409, 'its name is an active stage\'s now');
  const refusal = await section.getByRole('alert').innerText();
  t.match(refusal, /^"Lead" cannot be restored: the active stage "LEAD" of this pipeline has its name\. Rename "LEAD" first, then restore "Lead"\./, 'said at its pipeline, naming that stage');
  t.notMatch(refusal, /with name|stg_/, 'in the console\'s terms: no API field, no id');
  t.same(await stagesNow(), before, 'nothing changed');

  t.equal(await submitForm(page, 'Restore Pitch of Revival'), 303);
  t.match(await page.getByRole('status').innerText(), /The stage is active again, with the deals still in it/);
  t.match(await section.getByRole('listitem').last().innerText(), /^Pitch/, 'listed last among the active stages');
  t.match(await section.innerText(), /Archived: Lead · Restore/);
  t.same(await stagesNow(), [
    ['Won', 0, false],
    ['LEAD', 1, false],
    ['Pitch', 2, false],
    ['Lead', null, true],
  ], 'and so in the API');
  const events = await restoreEvents();
  t.equal(events.length, 1, 'one stage.updated');
  t.match(events[0], { actor: { kind: 'console_user', name: admin.user.email }, data: { previous_attributes: { archived: true, position: null } } });
  await check(t, page, 'console-pipelines-restored');

  // Its deal never left it: its page offers the stage again, chosen.
  await page.goto(`${base}${ws}/deals/${kept.id}`);
  t.equal(await page.getByLabel('Stage', { exact: true }).inputValue(), pitch.id, 'the deal is in the restored stage');

  // Sent again (a reload of the POST, a double click): the stage is active, nothing changes.
  const forms = await signInToConsole(base, wsId, admin.user.email, TEST_PASSWORD);
  t.equal((await forms.post(`/pipelines/${revival.id}/stages/${pitch.id}/restore`, {})).status, 303);
  t.equal((await restoreEvents()).length, 1, 'no second event');
  t.equal((await api.get<Pipeline>(`/v1/pipelines/${revival.id}`)).body.stages.find((s) => s.id === pitch.id)?.position, 2, 'still last');

  // A member who may only read deals: refused, nothing restored.
  const rita = await signInToConsole(base, wsId, 'rita@stagecraft.test', TEST_PASSWORD);
  t.equal((await rita.post(`/pipelines/${revival.id}/stages/${lead.id}/restore`, {})).status, 403);
  t.equal((await api.get<Pipeline>(`/v1/pipelines/${revival.id}`)).body.stages.find((s) => s.id === lead.id)?.archived, true);
  t.same(cspReports, [], 'no CSP violation');
});

t.test('a member who may only read deals can neither move them nor change stages', async (t) => {
  const page = await newPage();
  await signIn(page, base, 'rita@stagecraft.test', TEST_PASSWORD);
  await page.goto(`${base}${ws}/deals/${dealId}`);
  await page.getByRole('heading', { name: 'Stage door' }).waitFor();
  t.equal(await page.getByRole('button', { name: 'Move deal' }).count(), 0);
  await page.goto(`${base}${ws}/deals`);
  t.equal(await page.getByRole('link', { name: "Change the pipelines' stages" }).count(), 0, 'no link to the stages');
  t.equal((await page.goto(`${base}${ws}/pipelines`))?.status(), 403, 'and the page is refused');
  t.equal((await page.goto(`${base}${ws}/fields`))?.status(), 403, 'as is the custom fields page');
  // The forms themselves, posted with the member's own valid CSRF token: refused, nothing changed.
  const forms = await signInToConsole(base, wsId, 'rita@stagecraft.test', TEST_PASSWORD);
  const stagePath = `/pipelines/${pipeline.id}/stages/${first.id}`;
  t.equal((await forms.post(stagePath, { name: 'Renamed by Rita' })).status, 403, 'a rename');
  t.equal((await forms.post(`${stagePath}/position`, { position: '3' })).status, 403, 'a move');
  t.equal((await forms.post('/pipelines', { name: 'Rita pipeline' })).status, 403, 'a new pipeline');
  t.equal((await forms.post(`/pipelines/${pipeline.id}`, { name: 'Renamed by Rita' })).status, 403, "a pipeline's rename");
  const other = (await api.get<ListPage<Pipeline>>('/v1/pipelines')).body.data.find((p) => !p.is_default);
  t.equal((await forms.post(`/pipelines/${other?.id ?? ''}/default`, {})).status, 403, 'making one the default');
  t.equal((await api.get<Pipeline>(`/v1/pipelines/${pipeline.id}`)).body.name, pipeline.name, 'the pipeline is as it was');
  t.equal((await api.get<Pipeline>(`/v1/pipelines/${other?.id ?? ''}`)).body.is_default, false, 'and still not the default');
  t.notOk((await api.get<ListPage<Pipeline>>('/v1/pipelines')).body.data.some((p) => p.name === 'Rita pipeline'), 'none added');
  const after = (await api.get<Pipeline>(`/v1/pipelines/${pipeline.id}`)).body.stages.find((s) => s.id === first.id);
  t.match(after, { name: first.name, position: 0 }, 'the stage is as it was');
  t.same(cspReports, [], 'the pages ran under their CSP without a violation');
});
