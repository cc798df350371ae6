export * from './object-store';
export * from './keys';
export { FilesystemObjectStore, type FilesystemStoreOptions } from './fs-store';
export { S3ObjectStore, type S3StoreOptions } from './s3-store';
export { deriveObjectSecret, UPLOAD_FIELDS, type DownloadGrant, type UploadPolicy } from './fs-signing';
export { openObjectStore, sharedObjectStore, FS_UPLOAD_URL, FS_DOWNLOAD_URL, type OpenOptions } from './open';
export { resolveDocsLinkSecret } from './link-secret';
