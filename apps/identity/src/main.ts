import 'reflect-metadata';

import { runService } from '@kyc/platform';

import { identityService } from './app.module';

void runService(() => identityService());
