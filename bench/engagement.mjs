// Engagement benchmark (scenario `engagement` of bench/run.mjs):
//   (a) outbound sends per second through the engagement service and its WhatsApp adapter to the
//       SANDBOX messaging provider, against a bare HTTP call to the same provider endpoint (the
//       same-run ratio is the figure that matters on a shared machine);
//   (b) a campaign of BENCH_ENGAGEMENT_RECIPIENTS (10,000) recipients at BENCH_ENGAGEMENT_RATE
//       messages/s: completion time; the engagement process is killed (SIGKILL) when
//       BENCH_ENGAGEMENT_KILL_AT (0.5) of it is sent and started again; then every recipient must
//       have been messaged exactly once (0 duplicates, 0 missing, counted at the provider).
// The stack runs account, identity and checks (the demo tenant and its key); this scenario starts
// the sandbox provider and the engagement service itself so that it can kill and restart it.
import { StackError } from '../tools/stack/util.mjs';
import { connectDemoTenant, json, startEngagementBench } from './engagement-setup.mjs';
import { num } from './kit.mjs';

export async function engagementBenchmark(ctx) {
  const recipients = num('BENCH_ENGAGEMENT_RECIPIENTS', 10_000);
  const rate = num('BENCH_ENGAGEMENT_RATE', 500);
  const killAt = num('BENCH_ENGAGEMENT_KILL_AT', 0.5);
  const bench = await startEngagementBench(ctx, {
    ENGAGEMENT_WORKER_LOCK_MS: '3000',
    ENGAGEMENT_CAMPAIGN_UNCONFIRMED_MS: '15000',
    ENGAGEMENT_CAMPAIGN_CONCURRENCY: '32',
  });
  const { sandbox, base, headers } = bench;
  try {
    // The demo tenant's own WABA in the sandbox, and an approved outbound.
    const { waba, line } = await connectDemoTenant(bench);
    const outbound = await json(`${base}/v1/msg/outbounds`, {
      method: 'POST',
      headers,
      body: {
        outbound_name: 'bench',
        waba_phone_number: line.waba_line,
        category: 'UTILITY',
        language_code: 'es',
        template_type: 'TEXT',
        is_notification: true,
        content: 'Hola {{.name}}, tu pedido está en camino.',
        var: { name: { value: 'Ana' } },
      },
    });
    for (let i = 0; ; i++) {
      const o = await json(`${base}/v1/msg/outbounds/${outbound.outbound_id}`, { headers });
      if (o.status === 'APPROVED') break;
      if (i > 200) throw new StackError(`the bench outbound stayed ${o.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    // (a) sends per second: the service (API, rules, adapter, provider call, message + event) vs a bare provider call.
    const sendBody = JSON.stringify({
      phone_country_code: '+57',
      phone_number: '3001234567',
      outbound_id: outbound.outbound_id,
      user_authorized: true,
      'var.name': 'Ana',
    });
    // The service's CPU per send (its process's CPU time over the measured run, divided by the
    // sends) moves less with other load on the machine than sends per second do.
    const serviceSends = await ctx.measure(
      'engagement POST /v1/msg/outbounds/send',
      {
        url: `${base}/v1/msg/outbounds/send`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: sendBody,
      },
      { serverPid: bench.engagement.pid },
    );
    const template = sandbox.messages().at(-1).body.template;
    const bareSends = await ctx.measure('sandbox provider POST /{phone-number-id}/messages (bare)', {
      url: `${sandbox.graphUrl}/${waba.phone_numbers[0].id}/messages`,
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', to: '573001234567', type: 'template', template }),
    });
    // Only accepted sends count: a refused request (429, 4xx) is not a send.
    const okPerSec = (m) => m.responses_2xx / m.duration_s;
    const ratio = okPerSec(serviceSends) / okPerSec(bareSends);
    if (serviceSends.non_2xx || bareSends.non_2xx)
      ctx.log(`engagement: refused requests (${JSON.stringify(serviceSends.status_codes)}): the ratio counts 2xx only`);
    if (!serviceSends.requests_total)
      ctx.log(
        'engagement: no send completed within the measured window (each took longer than BENCH_DURATION): ' +
          'the ratio is 0 for lack of data, not a measurement; raise BENCH_DURATION',
      );
    ctx.log(
      `engagement: sends ${okPerSec(serviceSends).toFixed(1)}/s vs bare ${okPerSec(bareSends).toFixed(1)}/s (ratio ${ratio.toFixed(2)})`,
    );

    // (b) a campaign, killed mid-way.
    const phone = (i) => `35${String(i).padStart(8, '0')}`;
    const t0 = performance.now();
    const campaign = await json(`${base}/v1/msg/campaigns`, {
      method: 'POST',
      headers,
      body: {
        outbound_id: outbound.outbound_id,
        user_authorized: true,
        rate,
        recipients: Array.from({ length: recipients }, (_, i) => ({
          phone_country_code: '+57',
          phone_number: phone(i),
          var: { name: `Cliente ${i}` },
        })),
      },
    });
    const createdS = (performance.now() - t0) / 1000;
    ctx.log(`engagement: campaign of ${recipients} created in ${createdS.toFixed(2)} s at ${rate}/s`);
    let killedAtSent = null;
    let restartS = null;
    let progress;
    const deadline = t0 + num('BENCH_ENGAGEMENT_TIMEOUT', 600) * 1000;
    for (;;) {
      if (performance.now() > deadline)
        throw new StackError(`the campaign did not finish: ${JSON.stringify(progress)}`);
      try {
        progress = await json(`${base}/v1/msg/campaigns/${campaign.campaign_id}`, { headers });
      } catch (err) {
        if (killedAtSent === null || restartS !== null) throw err;
      }
      if (progress.status === 'completed') break;
      if (killedAtSent === null && killAt > 0 && progress.progress.sent >= recipients * killAt) {
        killedAtSent = progress.progress.sent;
        ctx.log(`engagement: killing the service (SIGKILL) at ${killedAtSent} sent`);
        const tr = performance.now();
        await bench.restart('SIGKILL');
        restartS = (performance.now() - tr) / 1000;
        ctx.log(`engagement: restarted in ${restartS.toFixed(1)} s`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const completedS = (performance.now() - t0) / 1000;
    const perPhone = new Map();
    for (const m of sandbox
      .messages()
      .filter((x) => x.phone_number_id === waba.phone_numbers[0].id && x.to.startsWith('5735')))
      perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
    const duplicates = [...perPhone.values()].filter((n) => n > 1).length;
    const missing = recipients - perPhone.size;
    ctx.log(
      `engagement: campaign completed in ${completedS.toFixed(1)} s (${(recipients / completedS).toFixed(0)} msg/s); ${duplicates} duplicates, ${missing} missing`,
    );
    return {
      result: {
        goal: { sends_ratio_above: 0.2, duplicates: 0, missing: 0 },
        sends: {
          service_per_sec: serviceSends.requests_per_sec_avg,
          bare_provider_per_sec: bareSends.requests_per_sec_avg,
          ratio: Math.round(ratio * 100) / 100,
          service: serviceSends,
          bare: bareSends,
        },
        campaign: {
          recipients,
          rate_per_sec: rate,
          created_s: Math.round(createdS * 100) / 100,
          completed_s: Math.round(completedS * 10) / 10,
          killed_at_sent: killedAtSent,
          restart_s: restartS === null ? null : Math.round(restartS * 10) / 10,
          duplicates,
          missing,
          progress: progress.progress,
        },
      },
    };
  } finally {
    await bench.stop();
  }
}
