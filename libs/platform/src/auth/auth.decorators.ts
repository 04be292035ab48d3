import type { ApiKeyType } from '@kyc/contracts';
import { applyDecorators, SetMetadata } from '@nestjs/common';

import { routeConfigDecorator } from '../http/request-limits';

export const PUBLIC_ROUTE = 'platform:public';
export const PLATFORM_ADMIN_ROUTE = 'platform:admin';
export const REQUIRED_PERMISSIONS = 'platform:permissions';
export const KEY_TYPES = 'platform:key-types';

/**
 * No API key needed (health, metrics, docs, third-party webhooks, signed upload links). Also marks
 * the Fastify route, so the platform does not ask for a key before reading its body.
 */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_ROUTE, true), routeConfigDecorator({ kycPublic: true }));

/** Only a platform operator token (minted with the platform private key) may call it. */
export const PlatformAdmin = () => SetMetadata(PLATFORM_ADMIN_ROUTE, true);

/** The caller's role must hold at least one of these permissions. */
export const RequirePermissions = (...anyOf: string[]) => SetMetadata(REQUIRED_PERMISSIONS, anyOf);

/**
 * The key types that may call a route (on the controller class, or on a method to override it).
 * Every route with an API key states it: the route table check fails the build on a keyed route
 * without one, and the guard treats a route that says nothing as backend-only. Web and sdk keys
 * are temporary keys bound to a grant and a flow for one process: a route that lets them in must
 * itself hold them to the process they are bound to.
 */
export const KeyTypes = (...types: [ApiKeyType, ...ApiKeyType[]]) => SetMetadata(KEY_TYPES, types);

/** The usual decision: only backend keys (a tenant's integration), never a temporary web or sdk key. */
export const BackendKeys = () => KeyTypes('backend');

/**
 * An end user's own process (spec 2: the temporary key bound to a flow continues the one process
 * it created): backend keys, and web/sdk keys of the digital-identity grant bound to a flow.
 */
export const EndUserKeys = () => KeyTypes('backend', 'web', 'sdk');
