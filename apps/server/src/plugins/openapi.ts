// OpenAPI 3.1 from the same zod schemas that validate requests: /api/openapi.json and /api/docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { APP_NAME, APP_VERSION } from '@careplane/shared/common/enums';

export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${APP_NAME} API`,
        version: APP_VERSION,
        description: 'Operations API for care-at-home and telemedicine.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // Client devices (the agent) call their own routes with the token issued when they were created.
          deviceToken: { type: 'http', scheme: 'bearer', bearerFormat: 'cpd_<43 base64url characters>' },
          // Prometheus scrapes /api/metrics with METRICS_TOKEN when one is configured.
          metricsToken: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  // The documentation page and its assets are public like the document they show.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true, access: 'public' };
    });
    await docs.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  });
  app.get(
    '/api/openapi.json',
    { config: { public: true, access: 'public' }, schema: { hide: true } },
    async () => app.swagger(),
  );
});
