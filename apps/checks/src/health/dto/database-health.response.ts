import { ApiProperty } from '@nestjs/swagger';

const STATUS = ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'undetermined'];

/** One database of the country and how it answered. */
export class DatabaseHealthResponse {
  @ApiProperty({ example: 'sandbox-co-police' }) database_id!: string;
  @ApiProperty() database_name!: string;
  @ApiProperty({ type: [String] }) data_sets!: string[];
  @ApiProperty({ enum: STATUS, description: 'Over the hour up to unixTimestampSeconds' }) status!: string;
  @ApiProperty({ description: 'Queries in that hour' }) runs!: number;
  @ApiProperty({ type: Number, nullable: true }) average_latency_ms!: number | null;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: STATUS }, description: 'The 24 hours of the local day' })
  hourly_status!: string[];
}
