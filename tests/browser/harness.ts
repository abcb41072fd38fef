import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type APIResponse, type BrowserContext, type Page, type Route } from 'playwright-core';
import { repoRoot } from '../shared-dir.ts';

/** Debian's chromium (installed by scripts/ensure-chromium.sh); never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots and traces of browser tests, kept as CI artifacts. */
export const ARTIFACTS_DIR = join(repoRoot, 'test-artifacts');

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** The profile folder: reuse it with `launch({ profileDir })` to test what survives a browser restart. */
  profileDir: string;
  /** Messages the page logged as errors, uncaught exceptions included. */
  errors: string[];
  close(options?: { keepProfile?: boolean }): Promise<void>;
}

/**
 * SwiftShader runs every WebGPU shader invocation on the CPU, and Dawn's zeroing of workgroup memory (WGSL's
 * guarantee) at the start of each one took most of a tiny-BERT embedding: 5.0 s of a 14 s session on the
 * self-test texts, 0.9 s without, five sessions in the browser suite. onnxruntime's kernels write that
 * memory before they read it (the vectors are bit for bit the same), and every WebGPU test still compares
 * its vectors with Node's or WASM's. Benchmarks pass `asUser` and run Chromium as a user has it.
 */
const TEST_ONLY_ARGS = ['--enable-dawn-features=disable_workgroup_init'];

/**
 * Starts headless chromium on a fresh (or given) profile. Playwright rejects `--user-data-dir` in args, so a
 * persistent context gets its own temp folder. `--enable-unsafe-webgpu` exposes a SwiftShader WebGPU
 * adapter on localhost; the background-networking flags stop chromium from calling Google's hosts, which
 * this machine's closed network refuses.
 */
export async function launch(options: { profileDir?: string; asUser?: boolean } = {}): Promise<BrowserSession> {
  const profileDir = options.profileDir ?? mkdtempSync(join(tmpdir(), 'rp-profile-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 900 },
    args: [
      '--no-sandbox',
      '--enable-unsafe-webgpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      // Chromium 156 (Debian) preloads its own top-chrome WebUI (the omnibox popup) in a renderer of its own
      // as it starts, even headless: seconds of CPU that a user's browser spends at its start, but that here
      // land on the first page load, on the same two cores (bench:app's first visit: 2.9 s with it, 1.8 s
      // without).
      '--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup',
      ...(options.asUser ? [] : TEST_ONLY_ARGS),
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return {
    context,
    page,
    profileDir,
    errors,
    async close({ keepProfile = false } = {}) {
      await context.close();
      if (!keepProfile) rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/**
 * Saves a screenshot under test-artifacts/ and returns its path: the window (1440 × 900), or the whole page
 * with RP_FULL_SCREENSHOTS=1. A full-page one makes Chromium lay out and paint the page at its full height and
 * back: 0.38 s and 0.4 s of CPU each, against 0.16 s and next to none for the window, and the suite takes 88.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: process.env.RP_FULL_SCREENSHOTS === '1' });
  return path;
}

/**
 * The response a routed request would get, fetched again when the preview server drops the connection
 * (ECONNRESET under load): a test that rewrites a worker must not fail on the server's hiccup.
 */
export async function fetchRouted(route: Route, attempts = 3): Promise<APIResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await route.fetch();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/**
 * Waits until `condition(arg)` holds in the page, checked every `interval` ms (default 100). Playwright's
 * waitForFunction checks on every animation frame unless told otherwise, and each check makes headless
 * Chromium render a frame: in a trace of SciFact's embedding with tiny BERT, those frames took 1.5 s of the
 * page's thread over 12 s (its tasks: 3.5 s with them, 2.0 s without), plus the compositor's and the GPU
 * process's work, on the two cores the app's own work needs. Every browser test and bench:app waits this way.
 */
export async function waitInPage<A>(page: Page, condition: (arg: A) => boolean, arg: A, options: { timeout: number; interval?: number }): Promise<void> {
  // Playwright types the page function's parameter as Unboxed<A> (handles unwrapped), which it does not
  // export; for the plain values passed here that is A itself.
  await page.waitForFunction(condition as never, arg, { timeout: options.timeout, polling: options.interval ?? 100 });
}
