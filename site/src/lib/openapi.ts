/**
 * OpenAPI 3.1 document for the public indexes. The record schemas are generated from the same zod schemas
 * that type the records (src/schemas.ts), so the description cannot drift from what the build writes.
 */
import { z } from 'astro/zod';
import { blogPostRecord, helpArticleRecord } from '../schemas.ts';

export const INDEX_API_VERSION = '1.0.0';

function schemaOf(schema: z.ZodType) {
  // OpenAPI 3.1 components are JSON Schema 2020-12; $schema/id are not wanted inside components.
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    // `format: date-time` says it all; zod's equivalent regular expression would only obscure it.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
    },
  }) as Record<string, unknown>;
  const { $schema: _schema, ...rest } = json;
  return rest;
}

const cacheHeader = {
  'Cache-Control': {
    description: 'Always `public, max-age=3600`.',
    schema: { type: 'string', const: 'public, max-age=3600' },
  },
};

function listOperation(summary: string, ref: string, description: string) {
  return {
    get: {
      summary,
      description,
      operationId: ref === 'BlogPostRecord' ? 'listBlogPosts' : 'listHelpArticles',
      security: [],
      responses: {
        '200': {
          description: 'JSON array of records.',
          headers: cacheHeader,
          content: {
            'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${ref}` } } },
          },
        },
      },
    },
  };
}

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rollcall public site search indexes',
      version: INDEX_API_VERSION,
      description:
        'Read-only JSON indexes of the public site, for search widgets. No authentication. Every published entry in en, es and pt; English fallback copies of untranslated pages are not listed.',
    },
    servers: [{ url: '/', description: 'The public site ({site_url})' }],
    paths: {
      '/api/posts.json': listOperation(
        'Blog post index',
        'BlogPostRecord',
        'Every published blog post in en, es and pt, newest first (ties: lang, then slug).',
      ),
      '/api/help.json': listOperation(
        'Help article index',
        'HelpArticleRecord',
        'Every published help article in en, es and pt, ordered by section, then priority (numbers ascending, then other strings, then none), then lang and slug.',
      ),
    },
    components: {
      schemas: {
        BlogPostRecord: schemaOf(blogPostRecord),
        HelpArticleRecord: schemaOf(helpArticleRecord),
      },
    },
  };
}
