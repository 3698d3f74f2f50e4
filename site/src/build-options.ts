import type { AstroUserConfig } from 'astro';

/**
 * Build settings shared by the site and the benchmark's plain-Astro baseline (bench/plain), so the build
 * benchmark compares like with like.
 */
export const sharedBuildOptions = {
  // No image optimisation (and so no sharp): content images are plain files.
  image: { service: { entrypoint: 'astro/assets/services/noop' } },
  devToolbar: { enabled: false },
  vite: {
    build: {
      rolldownOptions: {
        // Astro's MDX modules carry a "use astro:head-inject" directive that the bundler reports once per
        // file; harmless (Astro handles it), but it would bury real warnings in a large build.
        onwarn(warning, warn) {
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          warn(warning);
        },
      },
    },
  },
} satisfies Pick<AstroUserConfig, 'image' | 'devToolbar' | 'vite'>;
