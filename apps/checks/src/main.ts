import 'reflect-metadata';

import { runService } from '@kyc/platform';

import { checksService } from './app.module';

void runService(() => checksService());
