import { domainException } from '@kyc/platform';

/** Error codes of media uploads and reads. */
export enum MediaErrorCode {
  InvalidUploadLink = 'invalid_upload_link',
  UploadLinkExpired = 'upload_link_expired',
  MediaAlreadyUploaded = 'media_already_uploaded',
  MediaTooLarge = 'media_too_large',
  UnsupportedMedia = 'unsupported_media_type',
  ImageTooLarge = 'image_too_large',
  InvalidBase64 = 'invalid_base64',
  MediaNotFound = 'media_not_found',
}

const STATUS: Record<MediaErrorCode, number> = {
  [MediaErrorCode.InvalidUploadLink]: 403,
  [MediaErrorCode.UploadLinkExpired]: 403,
  [MediaErrorCode.MediaAlreadyUploaded]: 409,
  [MediaErrorCode.MediaTooLarge]: 413,
  [MediaErrorCode.UnsupportedMedia]: 415,
  [MediaErrorCode.ImageTooLarge]: 400,
  [MediaErrorCode.InvalidBase64]: 400,
  [MediaErrorCode.MediaNotFound]: 404,
};

export class MediaException extends domainException<MediaErrorCode>(STATUS) {}
