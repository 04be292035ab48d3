import { ApiProperty } from '@nestjs/swagger';

import { LOG_LEVELS } from './enqueue-log.dto';

/** A log entry of a process (GET /v1/processes/{process_id}/logs). */
export class ProcessLogResponse {
  @ApiProperty({ example: 'LOG0a1b2c3d4e5f60718293a4b5c6d7e8f9' }) log_id!: string;
  @ApiProperty() process_id!: string;
  @ApiProperty({ enum: LOG_LEVELS }) level!: string;
  @ApiProperty({ example: 'camera permission denied' }) message!: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
}

export const PROCESS_LOG_EXAMPLE = {
  log_id: 'LOG0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  process_id: 'IDP0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  level: 'warn',
  message: 'camera permission denied',
  creation_date: '2026-11-25T06:00:30.000Z',
};
