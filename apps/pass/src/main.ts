import 'reflect-metadata';

import { runService } from '@kyc/platform';

import { passService } from './app.module';

void runService(() => passService());
