// Response bodies of the resource endpoints. The spec does not show them; these are plausible
// shapes in the API's Italian naming, generated deterministically (row i is always the same).

export const DEFAULT_PAGE_SIZE = 50;
/** Big enough for a response of more than 10 MB (about 600 bytes per ditta). */
export const MAX_PAGE_SIZE = 50_000;

export interface Page<T> {
  pagina: number;
  dimensionePagina: number;
  totaleElementi: number;
  totalePagine: number;
  elementi: T[];
}

export type Paging = { ok: true; pagina: number; dimensionePagina: number } | { ok: false; message: string };

/** Reads `pagina` (1-based) and `dimensionePagina` from the query. */
export function parsePaging(query: URLSearchParams): Paging {
  const read = (name: string, fallback: number, max: number): number | string => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      return `Query parameter ${name} must be an integer from 1 to ${max}, got ${JSON.stringify(raw.slice(0, 40))}.`;
    }
    return Number(raw);
  };
  const pagina = read('pagina', 1, 999_999_999);
  if (typeof pagina === 'string') return { ok: false, message: pagina };
  const dimensionePagina = read('dimensionePagina', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  if (typeof dimensionePagina === 'string') return { ok: false, message: dimensionePagina };
  return { ok: true, pagina, dimensionePagina };
}

export function page<T>(total: number, paging: { pagina: number; dimensionePagina: number }, row: (index: number) => T): Page<T> {
  const start = (paging.pagina - 1) * paging.dimensionePagina;
  const end = Math.min(total, start + paging.dimensionePagina);
  const elementi: T[] = [];
  for (let i = start; i < end; i++) elementi.push(row(i));
  return {
    pagina: paging.pagina,
    dimensionePagina: paging.dimensionePagina,
    totaleElementi: total,
    totalePagine: Math.ceil(total / paging.dimensionePagina),
    elementi,
  };
}

// A small deterministic pseudo-random number from a seed string and an index.
function pick(seed: string, index: number, salt: number): number {
  let h = 2166136261 ^ salt;
  const s = `${seed}:${index}:${salt}`;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0);
}
const choose = <T>(list: readonly T[], seed: string, index: number, salt: number): T => list[pick(seed, index, salt) % list.length];

const COGNOMI = ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi', 'Moretti'];
const SETTORI = [
  { nome: 'Edilizia', ateco: '41.20.00' }, { nome: 'Trasporti', ateco: '49.41.00' }, { nome: 'Alimentari', ateco: '10.89.09' },
  { nome: 'Impianti Elettrici', ateco: '43.21.01' }, { nome: 'Consulenze', ateco: '70.22.09' }, { nome: 'Ristorazione', ateco: '56.10.11' },
  { nome: 'Informatica', ateco: '62.01.00' }, { nome: 'Arredamenti', ateco: '31.09.90' }, { nome: 'Meccanica', ateco: '25.62.00' },
  { nome: 'Commercio Ingrosso', ateco: '46.90.00' },
] as const;
const FORME = ['S.r.l.', 'S.p.A.', 'S.n.c.', 'S.a.s.', 'S.r.l.s.', 'Soc. Coop.'];
const COMUNI = [
  { comune: 'Milano', provincia: 'MI', cap: '20121', prefisso: '02' }, { comune: 'Torino', provincia: 'TO', cap: '10121', prefisso: '011' },
  { comune: 'Bergamo', provincia: 'BG', cap: '24121', prefisso: '035' }, { comune: 'Verona', provincia: 'VR', cap: '37121', prefisso: '045' },
  { comune: 'Bologna', provincia: 'BO', cap: '40121', prefisso: '051' }, { comune: 'Parma', provincia: 'PR', cap: '43121', prefisso: '0521' },
  { comune: 'Firenze', provincia: 'FI', cap: '50122', prefisso: '055' }, { comune: 'Padova', provincia: 'PD', cap: '35121', prefisso: '049' },
];
const VIE = ['Via Roma', 'Corso Italia', 'Via Garibaldi', 'Via Mazzini', 'Viale Europa', 'Via Dante', 'Piazza della Repubblica', 'Via Verdi'];
const REGIMI = ['RF01', 'RF01', 'RF01', 'RF19', 'RF02'];

export interface Ditta {
  id: number;
  codiceDitta: string;
  ragioneSociale: string;
  formaGiuridica: string;
  partitaIva: string;
  codiceFiscale: string;
  codiceAteco: string;
  regimeFiscale: string;
  sedeLegale: { indirizzo: string; cap: string; comune: string; provincia: string; nazione: string };
  telefono: string;
  email: string;
  pec: string;
  numeroDipendenti: number;
  dataInizioAttivita: string;
  attiva: boolean;
  ultimaModifica: string;
}

export function ditta(tenantCode: string, index: number): Ditta {
  const cognome = choose(COGNOMI, tenantCode, index, 1);
  const settore = choose(SETTORI, tenantCode, index, 2);
  const forma = choose(FORME, tenantCode, index, 3);
  const luogo = choose(COMUNI, tenantCode, index, 4);
  const piva = String(pick(tenantCode, index, 5) % 100_000_000_000).padStart(11, '0');
  const slug = `${cognome}.${settore.nome}`.toLowerCase().replace(/[^a-z.]/g, '');
  const year = 1970 + (pick(tenantCode, index, 6) % 55);
  const month = 1 + (pick(tenantCode, index, 7) % 12);
  const day = 1 + (pick(tenantCode, index, 8) % 28);
  return {
    id: index + 1,
    codiceDitta: `${tenantCode}-${String(index + 1).padStart(6, '0')}`,
    ragioneSociale: `${settore.nome} ${cognome} ${forma}`,
    formaGiuridica: forma,
    partitaIva: piva,
    codiceFiscale: piva,
    codiceAteco: settore.ateco,
    regimeFiscale: choose(REGIMI, tenantCode, index, 9),
    sedeLegale: {
      indirizzo: `${choose(VIE, tenantCode, index, 10)} ${1 + (pick(tenantCode, index, 11) % 180)}`,
      cap: luogo.cap, comune: luogo.comune, provincia: luogo.provincia, nazione: 'IT',
    },
    telefono: `+39 ${luogo.prefisso} ${String(pick(tenantCode, index, 12) % 10_000_000).padStart(7, '0')}`,
    email: `info@${slug.replace(/\./g, '-')}-${index + 1}.example.it`,
    pec: `${slug}${index + 1}@pec.example.it`,
    numeroDipendenti: pick(tenantCode, index, 13) % 250,
    dataInizioAttivita: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    attiva: pick(tenantCode, index, 14) % 10 !== 0,
    ultimaModifica: `2026-${String(1 + (pick(tenantCode, index, 15) % 10)).padStart(2, '0')}-${String(1 + (pick(tenantCode, index, 16) % 28)).padStart(2, '0')}T08:30:00Z`,
  };
}

export interface Configurazione {
  codice: string;
  sezione: string;
  descrizione: string;
  tipo: 'stringa' | 'intero' | 'booleano' | 'data';
  valore: string | number | boolean;
  valorePredefinito: string | number | boolean;
  modificabile: boolean;
  ultimaModifica: string;
}

const SEZIONI = ['Generale', 'Fatturazione', 'Magazzino', 'Contabilità', 'Personale', 'Documenti', 'Notifiche', 'Sicurezza'];
const VOCI: Array<{ chiave: string; descrizione: string; tipo: Configurazione['tipo'] }> = [
  { chiave: 'ABILITATO', descrizione: 'Funzione abilitata', tipo: 'booleano' },
  { chiave: 'PREFISSO', descrizione: 'Prefisso della numerazione', tipo: 'stringa' },
  { chiave: 'CIFRE', descrizione: 'Cifre della numerazione', tipo: 'intero' },
  { chiave: 'DATA_INIZIO', descrizione: 'Data di inizio validità', tipo: 'data' },
  { chiave: 'GIORNI_CONSERVAZIONE', descrizione: 'Giorni di conservazione', tipo: 'intero' },
  { chiave: 'EMAIL_AVVISI', descrizione: 'Indirizzo per gli avvisi', tipo: 'stringa' },
  { chiave: 'APPROVAZIONE', descrizione: 'Richiede approvazione', tipo: 'booleano' },
  { chiave: 'SOGLIA', descrizione: 'Soglia di avviso', tipo: 'intero' },
  { chiave: 'FORMATO', descrizione: 'Formato predefinito', tipo: 'stringa' },
  { chiave: 'ARCHIVIAZIONE', descrizione: 'Archiviazione automatica', tipo: 'booleano' },
  { chiave: 'LINGUA', descrizione: 'Lingua dei documenti', tipo: 'stringa' },
  { chiave: 'SCADENZA', descrizione: 'Data di scadenza', tipo: 'data' },
  { chiave: 'TENTATIVI', descrizione: 'Tentativi massimi', tipo: 'intero' },
  { chiave: 'REGISTRO', descrizione: 'Registro delle modifiche', tipo: 'booleano' },
  { chiave: 'CODICE_DEFAULT', descrizione: 'Codice predefinito', tipo: 'stringa' },
  { chiave: 'INTERVALLO', descrizione: 'Intervallo in minuti', tipo: 'intero' },
];
export const CONFIGURAZIONI_PER_ORGANIZATION = SEZIONI.length * VOCI.length;

function valueFor(tipo: Configurazione['tipo'], seed: string, index: number, salt: number): string | number | boolean {
  const n = pick(seed, index, salt);
  switch (tipo) {
    case 'booleano': return n % 2 === 0;
    case 'intero': return n % 1000;
    case 'data': return `20${20 + (n % 7)}-${String(1 + (n % 12)).padStart(2, '0')}-01`;
    case 'stringa': return ['IT', 'FT', 'standard', 'PDF/A', 'it-IT', 'amministrazione@example.it', 'A01'][n % 7];
  }
}

export function configurazione(organizationId: string, index: number): Configurazione {
  const sezione = SEZIONI[Math.floor(index / VOCI.length) % SEZIONI.length];
  const voce = VOCI[index % VOCI.length];
  return {
    codice: `${sezione.toUpperCase().replace(/[^A-Z]/g, '').slice(0, 4)}.${voce.chiave}`,
    sezione,
    descrizione: `${voce.descrizione} (${sezione.toLowerCase()})`,
    tipo: voce.tipo,
    valore: valueFor(voce.tipo, organizationId, index, 1),
    valorePredefinito: valueFor(voce.tipo, 'default', index, 2),
    modificabile: pick(organizationId, index, 3) % 5 !== 0,
    ultimaModifica: `2026-${String(1 + (pick(organizationId, index, 4) % 10)).padStart(2, '0')}-15T10:00:00Z`,
  };
}
