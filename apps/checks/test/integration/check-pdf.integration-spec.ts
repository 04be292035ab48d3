import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import { JobQueueService, ManualClock } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  RunningService,
  startInProcess,
  startService,
  TestTenant,
} from '@kyc/testing';

import { checksService } from '../../src/app.module';

/** PDFs of checks: requested (durable job), generated in es/en/pt, read back and parsed as text. */
describe('check PDF', () => {
  const clock = new ManualClock('2031-03-10T12:00:00Z');
  let checks: RunningService & { app: Awaited<ReturnType<typeof startInProcess>>['app'] };
  let account: RunningService;
  let jobs: JobQueueService;
  let a: { t: TestTenant; api: ApiClient };
  let b: { t: TestTenant; api: ApiClient };
  let checkId: string;

  beforeAll(async () => {
    [account, checks] = await Promise.all([
      startService('account', {
        KAFKA_CONSUMER_GROUP: `account-pdf-${randomBytes(4).toString('hex')}`,
      }),
      startInProcess('checks', checksService, { JOBS_POLL_MS: '60000' }, { clock }),
    ]);
    jobs = checks.app.get(JobQueueService);
    const tenant = async () => {
      const t = await createTenant(account.url, [checks.url]);
      return { t, api: new ApiClient(checks.url, t.apiKey) };
    };
    [a, b] = await Promise.all([tenant(), tenant()]);
    const res = await a.api.post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      force_creation: 'true',
      national_id: '1000000002',
      first_name: 'Carlos Andrés',
      last_name: 'Rojas Pérez',
      custom_input: 'ref-pdf-1',
    });
    checkId = res.body.check.check_id;
    await jobs.drain();
    clock.advance(2_000);
    await jobs.drain();
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close()]);
    await closeDb();
  });

  /** GET the PDF as bytes (the ApiClient reads text). */
  async function download(api: ApiClient, id: string, query = '') {
    const res = await fetch(`${checks.url}/v1/checks/${id}/pdf${query}`, {
      headers: { 'Service-API-Key': api.apiKey! },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      bytes,
      json: () => JSON.parse(bytes.toString('utf8')),
    };
  }

  /** The text of a PDF (pdftotext from poppler-utils, in content order), whitespace collapsed. */
  function text(pdf: Buffer): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        'pdftotext',
        ['-raw', '-enc', 'UTF-8', '-', '-'],
        { maxBuffer: 10 * 1024 * 1024 },
        (err: Error | null, stdout: string) => (err ? reject(err) : resolve(squash(stdout))),
      );
      child.stdin!.end(pdf);
    });
  }
  /** Whitespace collapsed; a word hyphen-broken at a line end joined again. */
  const squash = (s: string) => s.replace(/\s+/g, ' ').replace(/- /g, '-');

  it('answers 404 while no PDF was requested', async () => {
    const res = await download(a.api, checkId);
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, error_code: 'pdf_not_requested' });
  });

  it('answers 202 while generating, then the PDF in Spanish by default, English and Portuguese on request', async () => {
    const check = (await a.api.get(`/v1/checks/${checkId}`)).body.check;
    expect(check.status).toBe('completed');
    // Hold the check row so the generation job waits (it reads the check FOR SHARE) and "generating" is observable.
    const holder = await db().connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT id FROM checks.checks WHERE id = $1 FOR NO KEY UPDATE`, [checkId]);
      const requested = await a.api.post(`/v1/checks/${checkId}/pdf`);
      expect(requested.status).toBe(202);
      expect(requested.body).toMatchObject({
        check_id: checkId,
        status: 'generating',
        pdf_path: `/v1/checks/${checkId}/pdf`,
      });
      const pending = await download(a.api, checkId, '?lang=en');
      expect(pending.status).toBe(202);
      expect(pending.json()).toMatchObject({ code: 202, status: 'Accepted', error_code: 'pdf_generating' });
    } finally {
      await holder.query('COMMIT');
      holder.release();
    }
    await jobs.drain();
    const es = await eventually(async () => {
      const r = await download(a.api, checkId);
      expect(r.status).toBe(200);
      return r;
    });
    expect(es.type).toBe('application/pdf');
    expect(es.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const score = (n: number) => n.toFixed(2);
    const textEs = await text(es.bytes);
    for (const s of [
      'Reporte de antecedentes',
      'Información consultada',
      'Número de documento 1000000002',
      'Nombres Carlos Andrés',
      'Apellidos Rojas Pérez',
      'Identificador externo ref-pdf-1',
      'Puntajes',
      `Puntaje global`,
      score(check.score),
      score(check.id_score),
      score(check.homonym_score),
      'Conjuntos de datos consultados',
      'Antecedentes penales Encontrado',
      'Información encontrada',
      'Bases de datos',
      'Completado',
      'Nota legal',
      `ID del chequeo: ${checkId}`,
      'Generado el: 2031-03-10',
      'UTC',
      'Página 1 de',
    ]) {
      expect(textEs).toContain(s);
    }
    // Every record the details API shows is in the report: title, found by, severity and every cell.
    const details = (await a.api.get(`/v1/checks/${checkId}/details?lang=es`)).body.details as any[];
    const tables = details.flatMap((d) => d.tables);
    expect(tables.length).toBeGreaterThan(2);
    for (const table of tables) {
      expect(textEs).toContain(squash(table.title));
      for (const cell of table.rows.flatMap((r: any) => r.cells)) {
        expect(textEs).toContain(squash(cell.label));
        expect(textEs).toContain(squash(cell.value));
      }
    }
    expect(textEs).toContain('SANDBOX: registro ficticio');
    expect(textEs).toContain('Encontrado por: nombre');
    expect(textEs).toContain('puede pertenecer a un homónimo');
    for (const st of check.statuses) expect(textEs).toContain(squash(st.database_name));

    const textEn = await text((await download(a.api, checkId, '?lang=en')).bytes);
    for (const s of [
      'Background check report',
      'Information searched',
      'National ID 1000000002',
      'First name Carlos Andrés',
      'Scores',
      'Global score',
      'Datasets consulted',
      'Criminal record Found',
      'Information found',
      'Offense',
      'SANDBOX: fictitious record',
      'Databases',
      'Page 1 of',
    ]) {
      expect(textEn).toContain(s);
    }
    expect(textEn).not.toContain('Información consultada');

    const textPt = await text((await download(a.api, checkId, '?lang=pt')).bytes);
    for (const s of [
      'Relatório de antecedentes',
      'Informações consultadas',
      'Número do documento 1000000002',
      'Pontuações',
      'Pontuação global',
      'Conjuntos de dados consultados',
      'Antecedentes criminais',
      'Bases de dados',
      'Página 1 de',
    ]) {
      expect(textPt).toContain(s);
    }
    expect((await download(a.api, checkId, '?lang=es')).bytes.equals(es.bytes)).toBe(true);
  });

  it('refuses an unknown lang with 400 naming lang', async () => {
    const res = await download(a.api, checkId, '?lang=fr');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, fields: [expect.objectContaining({ field: 'lang' })] });
  });

  it("answers 404 for an unknown check and for another tenant's check on POST and GET, storing nothing", async () => {
    for (const id of ['CHKnope', checkId]) {
      const post = await b.api.post(`/v1/checks/${id}/pdf`);
      expect(post.status).toBe(404);
      expect(post.body).toMatchObject({ code: 404, error_code: 'check_not_found' });
      expect((await download(b.api, id)).status).toBe(404);
    }
    const rows = await db().query(`SELECT count(*)::int AS n FROM checks.check_pdfs WHERE tenant_id = $1`, [
      b.t.tenantId,
    ]);
    expect(rows.rows[0].n).toBe(0);
  });

  it('regenerates on a new request (the PDF shows the check as it is then)', async () => {
    const before = await db().query(`SELECT generated_at FROM checks.check_pdfs WHERE check_id = $1`, [checkId]);
    clock.advance(60_000);
    expect((await a.api.post(`/v1/checks/${checkId}/pdf`)).status).toBe(202);
    await jobs.drain();
    const after = await db().query(`SELECT status, generated_at FROM checks.check_pdfs WHERE check_id = $1`, [checkId]);
    expect(after.rows[0].status).toBe('ready');
    expect(after.rows[0].generated_at.getTime()).toBe(before.rows[0].generated_at.getTime() + 60_000);
    expect(await text((await download(a.api, checkId)).bytes)).toContain(
      `Generado el: ${clock.now().toISOString().slice(0, 19).replace('T', ' ')} UTC`,
    );
  });
});
