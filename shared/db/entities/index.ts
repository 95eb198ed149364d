export { Organization, OrganizationSchema } from './organization.js';
export { Workspace, WorkspaceSchema } from './workspace.js';
export { User, UserSchema } from './user.js';
export { Membership, MembershipSchema } from './membership.js';
export { ApiToken, ApiTokenSchema } from './api-token.js';
export { Contact, ContactSchema } from './contact.js';
export { CustomField, CustomFieldSchema } from './custom-field.js';
export { Pipeline, PipelineSchema } from './pipeline.js';
export { Stage, StageSchema } from './stage.js';
export { Deal, DealSchema } from './deal.js';
export { IdempotencyKey, IdempotencyKeySchema } from './idempotency-key.js';
export { OAuthClient, OAuthClientSchema } from './oauth-client.js';
export { UserSession, UserSessionSchema } from './user-session.js';
export { OAuthAuthorizationRequest, OAuthAuthorizationRequestSchema } from './oauth-authorization-request.js';
export { OAuthGrant, OAuthGrantSchema } from './oauth-grant.js';
export { OAuthCode, OAuthCodeSchema } from './oauth-code.js';
export { OAuthRefreshToken, OAuthRefreshTokenSchema } from './oauth-refresh-token.js';
export { OAuthSigningKey, OAuthSigningKeySchema } from './oauth-signing-key.js';
export { SignInAttempt, SignInAttemptSchema } from './sign-in-attempt.js';
export { Event, EventSchema } from './event.js';
export { WebhookEndpoint, WebhookEndpointSchema } from './webhook-endpoint.js';
export { WebhookDelivery, WebhookDeliverySchema } from './webhook-delivery.js';
export { WebhookDeliveryAttempt, WebhookDeliveryAttemptSchema } from './webhook-delivery-attempt.js';
export { Note, NoteSchema } from './note.js';

import { ApiToken } from './api-token.js';
import { Contact } from './contact.js';
import { CustomField } from './custom-field.js';
import { Deal } from './deal.js';
import { IdempotencyKey } from './idempotency-key.js';
import { Membership } from './membership.js';
import { Organization } from './organization.js';
import { Pipeline } from './pipeline.js';
import { Stage } from './stage.js';
import { User } from './user.js';
import { Workspace } from './workspace.js';
import { OAuthAuthorizationRequest } from './oauth-authorization-request.js';
import { OAuthClient } from './oauth-client.js';
import { OAuthCode } from './oauth-code.js';
import { OAuthGrant } from './oauth-grant.js';
import { OAuthRefreshToken } from './oauth-refresh-token.js';
import { OAuthSigningKey } from './oauth-signing-key.js';
import { SignInAttempt } from './sign-in-attempt.js';
import { UserSession } from './user-session.js';
import { Event } from './event.js';
import { WebhookEndpoint } from './webhook-endpoint.js';
import { WebhookDelivery } from './webhook-delivery.js';
import { WebhookDeliveryAttempt } from './webhook-delivery-attempt.js';
import { Note } from './note.js';

export const ALL_ENTITIES = [
  Organization,
  Workspace,
  User,
  Membership,
  ApiToken,
  Contact,
  CustomField,
  Pipeline,
  Stage,
  Deal,
  IdempotencyKey,
  OAuthClient,
  UserSession,
  OAuthAuthorizationRequest,
  OAuthGrant,
  OAuthCode,
  OAuthRefreshToken,
  OAuthSigningKey,
  SignInAttempt,
  Event,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  Note,
];

/** Entities that belong to one workspace: the `workspace` filter scopes every query on them. */
export const WORKSPACE_ENTITIES = ['Membership', 'ApiToken', 'Contact', 'CustomField', 'Pipeline', 'Stage', 'Deal', 'IdempotencyKey', 'Event', 'WebhookEndpoint', 'WebhookDelivery', 'WebhookDeliveryAttempt', 'Note'];
