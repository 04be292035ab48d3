// First: starts tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) before the instrumented modules load.
import '@kyc/platform/tracing';
import 'reflect-metadata';

import { runService } from '@kyc/platform';

import { consoleService } from './app.module';

void runService(() => consoleService());
