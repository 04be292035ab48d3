import 'reflect-metadata';

import { runService } from '@kyc/platform';

import { validationsService } from './app.module';

void runService(() => validationsService());
