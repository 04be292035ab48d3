import { Transform } from 'class-transformer';
import { IsInt, IsString, Min } from 'class-validator';

/** The signature and expiry of an upload or media link. */
export class SignedLinkQuery {
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value,
  )
  @IsInt({ message: 'expires must be a Unix time in seconds' })
  @Min(0)
  expires!: number;

  @IsString({ message: 'signature is required' })
  signature!: string;
}
