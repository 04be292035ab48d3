import { applyDecorators, SetMetadata } from '@nestjs/common';

import { routeConfigDecorator } from '../http/request-limits';

export const PUBLIC_ROUTE = 'platform:public';
export const PLATFORM_ADMIN_ROUTE = 'platform:admin';
export const REQUIRED_PERMISSIONS = 'platform:permissions';

/**
 * No API key needed (health, metrics, docs, third-party webhooks, signed upload links). Also marks
 * the Fastify route, so the platform does not ask for a key before reading its body.
 */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_ROUTE, true), routeConfigDecorator({ kycPublic: true }));

/** Only a platform operator token (minted with the platform private key) may call it. */
export const PlatformAdmin = () => SetMetadata(PLATFORM_ADMIN_ROUTE, true);

/** The caller's role must hold at least one of these permissions. */
export const RequirePermissions = (...anyOf: string[]) => SetMetadata(REQUIRED_PERMISSIONS, anyOf);
