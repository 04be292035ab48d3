import { PlatformConfig } from '@kyc/platform';
import type { FastifyRequest } from 'fastify';

/** The validations URL links are built on: PUBLIC_URL when set, else the URL the client called. */
export const baseUrl = (config: PlatformConfig, req: FastifyRequest) =>
  config.PUBLIC_URL ? config.publicUrl : `${req.protocol}://${req.host}`;
