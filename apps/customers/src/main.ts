import 'reflect-metadata';

import { runService } from '@kyc/platform';

import { customersService } from './app.module';

void runService(() => customersService());
