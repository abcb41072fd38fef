import { mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
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

/** /dev/shm, when it is a memory file system with room (Docker gives 64 MB; this machine 24 GB). */
function sharedMemoryDir(): string | undefined {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    return bavail * bsize >= 1024 ** 3 ? '/dev/shm' : undefined;
  } catch {
    return undefined;
  }
}

export interface LaunchOptions {
  /** An existing profile (a browser restart), instead of a fresh one. */
  profileDir?: string;
  /**
   * Where a fresh profile goes: in memory (/dev/shm, the default where it has room) or on disk (the system's
   * temp folder), as a user's is. Tests keep theirs in memory: on this VM each page fault and page-cache
   * write is costly, and robust-storage.test.ts took 73 s on disk, 65 s in memory. bench:app keeps its on disk.
   */
  profileOn?: 'memory' | 'disk';
}

/**
 * Starts headless chromium on a fresh (or given) profile. Playwright rejects `--user-data-dir` in args, so a
 * persistent context gets its own temp folder. `--enable-unsafe-webgpu` exposes a SwiftShader WebGPU
 * adapter on localhost; the background-networking flags stop chromium from calling Google's hosts, which
 * this machine's closed network refuses.
 *
 * Playwright adds `--disable-dev-shm-usage` for Docker's small /dev/shm, which moves Chromium's shared memory
 * into files under /tmp, on disk here. Where /dev/shm has room the flag is dropped, as in a user's browser.
 */
export async function launch(options: LaunchOptions = {}): Promise<BrowserSession> {
  const shm = sharedMemoryDir();
  const root = options.profileOn !== 'disk' && shm !== undefined ? shm : tmpdir();
  const profileDir = options.profileDir ?? mkdtempSync(join(root, 'rp-profile-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    ...(shm === undefined ? {} : { ignoreDefaultArgs: ['--disable-dev-shm-usage'] }),
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

/** Saves a full-page screenshot under test-artifacts/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
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
