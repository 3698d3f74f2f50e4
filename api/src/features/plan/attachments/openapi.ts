import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import type { Operation } from '../../../http/openapi/types.ts';
import { UPLOAD_CONTENT_PATH, attachmentRoutes } from './routes.ts';

const { str, uuid, nullableStr, nullableUuid, dateTime, nullableDateTime } = fields;

const part = planOpenApiPart(attachmentRoutes, {
  PlanAttachment: {
    type: 'object',
    properties: {
      uuid, id: uuid, object_type: str, object_uuid: uuid, filename: str, content_type: nullableStr,
      kind: { type: ['string', 'null'], description: 'png, jpeg, gif, webp, pdf, text, markdown, zip, word, excel or powerpoint: what the content is' },
      caption: nullableStr, size: { type: ['integer', 'null'] }, sha256: nullableStr, status: { enum: ['pending', 'ready'] }, uploaded_by: nullableUuid, created_at: dateTime, confirmed_at: nullableDateTime,
    },
  },
  PlanPresignedUpload: {
    type: 'object',
    properties: {
      attachment_uuid: uuid, attachment: { $ref: '#/components/schemas/PlanAttachment', description: 'the reserved attachment (status pending); its uuid is attachment_uuid' },
      upload_url: { type: 'string', format: 'uri' }, method: { const: 'PUT' }, headers: { type: 'object', description: 'headers to send with the bytes (none today)' },
      expires_at: dateTime, max_size_bytes: { type: 'integer' },
    },
  },
  PlanResolvedAttachments: {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      results: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/PlanAttachment' }, { type: 'object', properties: { url: { type: 'string', format: 'uri' } } }] } },
      missing: { type: 'array', items: uuid },
    },
  },
});

/** The presigned upload's PUT: served beside the Plan routes, with the URL's token as its only credential. */
const put: Operation = {
  method: 'put',
  path: '/v1/uploads/:attachment/',
  summary: 'PUT the bytes of a presigned upload to its upload_url (the token in the URL is the permission); then confirm',
  tag: 'Plan: attachments',
  auth: false,
  query: [{ name: 'token', description: 'from upload_url' }],
  rawBody: { contentType: 'application/octet-stream', schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
  responses: { 200: { type: 'object', properties: { attachment_uuid: uuid, status: { const: 'uploaded' }, size: { type: 'integer' }, sha256: str } } },
  errors: { 400: '`attachment_too_large` (more bytes than presigned; `extra.max_size_bytes`)', 404: 'Unknown, expired or already confirmed upload URL', 503: '`attachment_storage_unavailable`' },
  extensions: { 'x-beta': true },
};

/** The same upload at the task's content path (presign's upload_url), by PUT or POST. */
const atContent = (method: 'put' | 'post'): Operation => ({
  ...put,
  method,
  path: UPLOAD_CONTENT_PATH,
  summary: `${method.toUpperCase()} the bytes of a presigned upload to its upload_url, the task's content path (the token in the URL is the permission); then confirm`,
});

export const operations = [...part.operations, put, atContent('put'), atContent('post')];
export const schemas = part.schemas;
