// The sandbox's own OpenAPI descriptions, served by the base host under /openapi/ without sign-in:
// the tenant listing (OpenAPI 3.1, JSON, no licence module), the configurations (3.0, JSON, module
// core) and the electronic invoicing resources of the clusters (3.0, YAML, module efat). Their schemas
// describe exactly what resourceApi.ts answers (test/http/sandbox/openapi.test.ts checks every answer).
import { stringify } from 'yaml';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './data';

/** Where each description is served (on the base host) and how `npm start` attaches it. */
export const OPENAPI_DOCUMENTS = [
  { file: 'platform.json', host: 'base' as const },
  { file: 'core.json', host: 'base' as const, module: 'core' },
  { file: 'efat.yaml', host: 'cluster' as const, module: 'efat' },
];

const error = {
  type: 'object',
  required: ['error', 'message'],
  properties: { error: { type: 'string', description: 'A short code: invalid_token, missing_licence_key, rate_limit_exceeded...' }, message: { type: 'string' } },
};
const errors30 = (extra: string[] = []) => ({
  ...Object.fromEntries(
    [['401', 'No valid bearer token, or no licence key'], ['403', 'A licence key of another module or organization, or a tenant not yours'], ['429', 'A limit is exceeded (per second, per minute or weekly)'], ...extra.map((status) => [status, 'A parameter is wrong'])].map(([status, description]) => [
      status,
      { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Errore' } } } },
    ]),
  ),
  default: { description: 'Any other refusal (wrong host or cluster, media types, size)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Errore' } } } },
});
const paging = [
  { name: 'pagina', in: 'query', description: 'The page, from 1', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'dimensionePagina', in: 'query', description: `Rows per page (at most ${MAX_PAGE_SIZE})`, schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } },
];
const page = (items: string) => ({
  type: 'object',
  required: ['pagina', 'dimensionePagina', 'totaleElementi', 'totalePagine', 'elementi'],
  properties: {
    pagina: { type: 'integer', minimum: 1 },
    dimensionePagina: { type: 'integer', minimum: 1 },
    totaleElementi: { type: 'integer', minimum: 0 },
    totalePagine: { type: 'integer', minimum: 0 },
    elementi: { type: 'array', items: { $ref: `#/components/schemas/${items}` } },
  },
});

function platform(): object {
  return {
    openapi: '3.1.0',
    info: { title: 'Piattaforma', version: '10', description: 'The tenant listing: the bearer token alone.' },
    paths: {
      '/v10/user-tenants': {
        get: {
          operationId: 'userTenants',
          summary: 'The data areas (tenants) the signed-in user may access',
          tags: ['Tenant'],
          responses: {
            '200': { description: 'One record per tenant', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Tenant' } } } } },
            '401': { description: 'No valid bearer token', content: { 'application/json': { schema: { $ref: '#/components/schemas/Errore' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Tenant: {
          type: 'object',
          required: ['id', 'codiceAmbienteDati', 'descrizioneAmbienteDati', 'clusterAddress'],
          additionalProperties: false,
          properties: {
            id: { type: 'string', format: 'uuid', description: 'Sent as User-Tenant' },
            codiceAmbienteDati: { type: 'string' },
            descrizioneAmbienteDati: { type: 'string' },
            clusterAddress: { type: 'string', format: 'uri', description: 'The host of this tenant\'s calls' },
          },
        },
        Errore: error,
      },
    },
  };
}

function core(): object {
  const value = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] };
  return {
    openapi: '3.0.3',
    info: { title: 'Configurazioni', version: '1', description: 'Settings of the licence key\'s organization (module core).' },
    paths: {
      '/api/configurazioni': {
        get: {
          operationId: 'configurazioni',
          summary: 'The organization\'s settings, a page at a time',
          tags: ['Configurazioni'],
          parameters: paging,
          responses: { '200': { description: 'A page of settings', content: { 'application/json': { schema: { $ref: '#/components/schemas/PaginaConfigurazioni' } } } }, ...errors30(['400']) },
        },
      },
    },
    components: {
      schemas: {
        PaginaConfigurazioni: { allOf: [{ type: 'object', required: ['organizzazione'], properties: { organizzazione: { type: 'string' } } }, page('Configurazione')] },
        Configurazione: {
          type: 'object',
          required: ['codice', 'sezione', 'descrizione', 'tipo', 'valore', 'valorePredefinito', 'modificabile', 'ultimaModifica'],
          additionalProperties: false,
          properties: {
            codice: { type: 'string', example: 'GENE.ABILITATO' },
            sezione: { type: 'string' },
            descrizione: { type: 'string' },
            tipo: { type: 'string', enum: ['stringa', 'intero', 'booleano', 'data'] },
            valore: value,
            valorePredefinito: value,
            modificabile: { type: 'boolean' },
            ultimaModifica: { type: 'string', format: 'date-time' },
          },
        },
        Errore: error,
      },
    },
  };
}

function efat(): object {
  const address = { type: 'object', required: ['indirizzo', 'cap', 'comune', 'provincia', 'nazione'], properties: { indirizzo: { type: 'string' }, cap: { type: 'string', pattern: '^\\d{5}$' }, comune: { type: 'string' }, provincia: { type: 'string', minLength: 2, maxLength: 2 }, nazione: { type: 'string' } } };
  const text = { type: 'string' };
  return {
    openapi: '3.0.3',
    info: { title: 'Fatturazione elettronica', version: '1', description: 'The tenant\'s companies and its summary, served by its cluster (module efat).' },
    servers: [{ url: '/efat/api/v1', description: 'The tenant\'s cluster' }],
    paths: {
      '/ditte': {
        get: {
          operationId: 'ditte',
          summary: 'The tenant\'s companies, a page at a time',
          tags: ['Ditte'],
          parameters: paging,
          responses: { '200': { description: 'A page of companies', content: { 'application/json': { schema: { $ref: '#/components/schemas/PaginaDitte' } } } }, ...errors30(['400']) },
        },
      },
      '/riepilogo': {
        get: {
          operationId: 'riepilogo',
          summary: 'The tenant\'s summary (a static resource: its answer may be kept)',
          tags: ['Riepilogo'],
          responses: { '200': { description: 'The summary', content: { 'application/json': { schema: { $ref: '#/components/schemas/Riepilogo' } } } }, ...errors30() },
        },
      },
    },
    components: {
      schemas: {
        PaginaDitte: { allOf: [{ type: 'object', required: ['ambienteDati'], properties: { ambienteDati: { type: 'string' } } }, page('Ditta')] },
        Ditta: {
          type: 'object',
          required: ['id', 'codiceDitta', 'ragioneSociale', 'partitaIva', 'sedeLegale', 'attiva'],
          properties: {
            id: { type: 'integer', minimum: 1 },
            codiceDitta: text,
            ragioneSociale: text,
            formaGiuridica: text,
            partitaIva: { type: 'string', pattern: '^\\d{11}$' },
            codiceFiscale: text,
            codiceAteco: { type: 'string', pattern: '^\\d{2}\\.\\d{2}\\.\\d{2}$' },
            regimeFiscale: { type: 'string', pattern: '^RF\\d{2}$' },
            sedeLegale: address,
            telefono: text,
            email: { type: 'string', format: 'email' },
            pec: { type: 'string', format: 'email' },
            numeroDipendenti: { type: 'integer', minimum: 0 },
            dataInizioAttivita: { type: 'string', format: 'date' },
            attiva: { type: 'boolean' },
            ultimaModifica: { type: 'string', format: 'date-time' },
          },
        },
        Riepilogo: {
          type: 'object',
          required: ['ambienteDati', 'revisione', 'totaleDitte', 'ditteAttive', 'aggiornatoAlle'],
          properties: { ambienteDati: text, revisione: { type: 'integer', minimum: 1 }, totaleDitte: { type: 'integer', minimum: 0 }, ditteAttive: { type: 'integer', minimum: 0 }, aggiornatoAlle: { type: 'string', format: 'date-time' } },
        },
        Errore: error,
      },
    },
  };
}

/** The text of a served description, or undefined for another name. */
export function openApiDocument(file: string): { text: string; contentType: string } | undefined {
  switch (file) {
    case 'platform.json':
      return { text: JSON.stringify(platform(), null, 2), contentType: 'application/json; charset=utf-8' };
    case 'core.json':
      return { text: JSON.stringify(core(), null, 2), contentType: 'application/json; charset=utf-8' };
    case 'efat.yaml':
      return { text: stringify(efat()), contentType: 'application/yaml; charset=utf-8' };
    default:
      return undefined;
  }
}
