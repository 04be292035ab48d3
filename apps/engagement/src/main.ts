import 'reflect-metadata';

import { runService } from '@kyc/platform';

import { engagementService } from './app.module';

void runService(() => engagementService());
