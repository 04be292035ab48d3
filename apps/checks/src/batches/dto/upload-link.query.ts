import { IsOptional, IsString } from 'class-validator';

/** The signed part of a file_upload_link (checked by the service, not by the validator). */
export class UploadLinkQuery {
  @IsOptional() @IsString() expires?: string;
  @IsOptional() @IsString() signature?: string;
}
