import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../domain/errors.ts';
import { CSRF_COOKIE, forgotPasswordInput, inviteStateInput, resetPasswordInput, SESSION_COOKIE, SESSION_MAX_MS, setPasswordInput, signInInput } from '../domain/people.ts';
import { addressKey } from '../http/anonymous.ts';
import { cookie, sameOrigin, verifiedActor } from '../http/caller.ts';
import { sendError } from '../http/reply.ts';
import { PROJECT_ROOT } from '../paths.ts';
import type { Services } from '../services/index.ts';
import { type NewSession, type SignInOutcome, SignInThrottled } from '../services/people.ts';

/** Where `npm install` (scripts/build-dashboard) puts the bundled application. */
export const DASHBOARD_DIR = join(PROJECT_ROOT, 'build', 'dashboard');

/**
 * The page's policy: everything from this origin only (no CDN, no inline script or style), no
 * framing, forms and connections back to this origin alone.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The application's files by name: the built script and style sheet (their `.br`/`.gz` copies are only ever their encodings). */
const ASSET = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(js|css|svg|map)$/;

/**
 * The merchant dashboard (CONTRACT §10): its pages (one application, served from the files the
 * install built), and the three things that are not GraphQL because they make or end the session
 * cookie itself: sign-in, setting the password from an invite link, and sign-out. Everything else
 * the application does goes through `/graphql` like any other client, with the session cookie and
 * its CSRF token.
 */
export async function dashboardRoutes(app: FastifyInstance, opts: { services: Services; config: Config }) {
  const { services, config } = opts;
  const secure = config.serviceEnv === 'prd';

  function setSession(reply: FastifyReply, session: NewSession) {
    const maxAge = Math.floor(SESSION_MAX_MS / 1000);
    const tail = `Path=/; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
    reply.header('Set-Cookie', [
      `${SESSION_COOKIE}=${session.token}; HttpOnly; SameSite=Lax; ${tail}`,
      // Readable by the application (it sends it back as X-CSRF-Token), by no other site.
      `${CSRF_COOKIE}=${session.csrf}; SameSite=Strict; ${tail}`,
    ]);
  }

  function clearSession(reply: FastifyReply) {
    const tail = `Path=/; Max-Age=0${secure ? '; Secure' : ''}`;
    reply.header('Set-Cookie', [`${SESSION_COOKIE}=; HttpOnly; SameSite=Lax; ${tail}`, `${CSRF_COOKIE}=; SameSite=Strict; ${tail}`]);
  }

  /** A form posted from another site (login CSRF) changes nothing. */
  function fromHere(req: FastifyRequest) {
    if (!sameOrigin(req, config.publicBaseUrl)) throw new AppError('FORBIDDEN', 'CSRF check failed: a request from another site');
  }

  function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, body: unknown): T {
    const r = schema.safeParse(body ?? {});
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new AppError('VALIDATION_FAILED', `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    return r.data;
  }

  /**
   * What a right password answers: the session (its cookie; recovery codes of a second factor set
   * up just now, shown once), or the second step the page asks for next, without a cookie.
   */
  function outcome(reply: FastifyReply, o: SignInOutcome) {
    if (o.kind === 'second_factor') return { data: { second_factor: 'code' } };
    if (o.kind === 'second_factor_setup') {
      return { data: { second_factor: 'setup', otpauth_uri: o.setup.otpauthUri, qr_code: o.setup.qrDataUrl, secret: o.setup.secret } };
    }
    setSession(reply, o.session);
    return { data: { expires_at: o.session.expiresAt.toISOString(), ...(o.recoveryCodes && { recovery_codes: o.recoveryCodes }) } };
  }

  const signIn = { config: { gate: 'signIn' as const } };
  app.post('/dashboard/login', signIn, async (req, reply) => {
    fromHere(req);
    const { email, password, code } = parse(signInInput, req.body);
    try {
      return outcome(reply, await services.people.signIn(email, password, addressKey(req.ip), code || undefined));
    } catch (e) {
      if (e instanceof SignInThrottled) reply.header('Retry-After', String(e.retryAfter));
      throw e;
    }
  });

  app.post('/dashboard/invite', signIn, async (req, reply) => {
    fromHere(req);
    const { token, password } = parse(setPasswordInput, req.body);
    return outcome(reply, await services.people.acceptInvite(token, password));
  });

  // A forgotten password (CONTRACT §11): the same answer whether or not the address has an account.
  app.get('/dashboard/sign-in-options', async () => ({ data: { password_reset: services.passwordReset.byEmail } }));

  app.post('/dashboard/password/forgot', signIn, async (req) => {
    fromHere(req);
    const { email } = parse(forgotPasswordInput, req.body);
    await services.passwordReset.forgot(email);
    return { data: { requested: true } };
  });

  app.post('/dashboard/password/reset', signIn, async (req) => {
    fromHere(req);
    const { token, password } = parse(resetPasswordInput, req.body);
    await services.passwordReset.reset(token, password);
    return { data: { password_set: true } };
  });

  // The invite page asks first (the token travels in a body, never in an address a log keeps).
  app.post('/dashboard/invite/status', signIn, async (req) => {
    fromHere(req);
    const { token } = parse(inviteStateInput, req.body);
    const s = await services.people.inviteState(token);
    return {
      data: {
        state: s.state,
        email: s.email ?? null,
        role: s.role ?? null,
        merchant_name: s.merchantName ?? null,
        expires_at: s.expiresAt?.toISOString() ?? null,
      },
    };
  });

  app.post('/dashboard/logout', { config: { gate: 'session' as const } }, async (req, reply) => {
    verifiedActor(req, 'merchant');
    const token = cookie(req, SESSION_COOKIE);
    if (token) await services.people.signOut(token);
    clearSession(reply);
    return { data: { signed_out: true } };
  });

  // The application's files: built at install time, cached by name (each carries its content hash),
  // and sent as the brotli or gzip copy the build made beside each when the browser takes one
  // (`Content-Encoding`, `Vary: Accept-Encoding`), else as they are. @fastify/static negotiates
  // and sends; the route stays this one, for the named files only.
  await app.register(fastifyStatic, {
    root: join(DASHBOARD_DIR, 'assets'),
    serve: false,
    preCompressed: true,
    index: false,
    list: false,
    dotfiles: 'deny',
    cacheControl: true,
    maxAge: '365d',
    immutable: true,
  });
  app.get<{ Params: { file: string } }>('/dashboard/assets/:file', (req, reply) => {
    if (!ASSET.test(req.params.file)) throw new AppError('NOT_FOUND', 'no such file');
    return reply.sendFile(req.params.file);
  });

  let page: Buffer | undefined;
  async function index(_req: FastifyRequest, reply: FastifyReply) {
    try {
      page ??= await readFile(join(DASHBOARD_DIR, 'index.html'));
    } catch {
      reply.code(503).header('Content-Type', 'text/plain; charset=utf-8');
      return 'The dashboard has not been built: run npm install (or npm run build:dashboard).';
    }
    reply.header('Content-Type', 'text/html; charset=utf-8');
    reply.header('Content-Security-Policy', CSP);
    reply.header('Cache-Control', 'no-store');
    reply.header('X-Frame-Options', 'DENY');
    return reply.send(page);
  }
  for (const path of ['/dashboard', '/dashboard/', '/dashboard/login', '/dashboard/invite', '/dashboard/forgot', '/dashboard/reset', '/dashboard/account', '/dashboard/payments', '/dashboard/payments/:id', '/dashboard/payouts', '/dashboard/payouts/:id', '/dashboard/webhooks', '/dashboard/keys', '/dashboard/statements', '/dashboard/people', '/dashboard/links', '/dashboard/refunds']) {
    app.get(path, index);
  }
  app.setErrorHandler((error, req, reply) => sendError(error, req, reply));
}
