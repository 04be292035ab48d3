import 'reflect-metadata';

import { runService } from '@kyc/platform';

import { accountService } from './app.module';

void runService(() => accountService());
