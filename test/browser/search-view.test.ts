/**
 * SearchView (src/ui/components/SearchView.svelte), mounted in Chromium: the field holds what the person types while
 * the search's own state changes under it (a result landing, the previous query's hits cleared), and only a new
 * query in the route puts it back. The bug this pins: the effect that copies the route's query into the field also
 * tracked the search state, so a result landing mid-typing reset the field (the e2e layout-views test lost 'sr' of
 * 'src/' under load).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import SearchView from '../../src/ui/components/SearchView.svelte';
import { BrainState } from '../../src/ui/state/brain.svelte';
import { Router } from '../../src/ui/state/router.svelte';
import { SearchState } from '../../src/ui/state/search.svelte';

/** A location whose hash the router reads and writes, and that says when it changes (as `window` would). */
function hashHost(initial: string) {
  const listeners = new Set<() => void>();
  const location = { hash: initial };
  return {
    location,
    addEventListener: (_: 'hashchange', listener: () => void) => listeners.add(listener),
    removeEventListener: (_: 'hashchange', listener: () => void) => listeners.delete(listener),
  };
}

const mounted: Record<string, unknown>[] = [];
afterEach(async () => {
  await Promise.all(mounted.splice(0).map((component) => unmount(component)));
  document.body.replaceChildren();
});

function render(query: string) {
  // A brain that is not open: the view's searches do nothing, so the test alone moves the search's state.
  const search = new SearchState(
    new BrainState({ dbName: 'search-view-unopened.db', closeOnPageHide: false }),
  );
  const router = new Router(hashHost(`#/search?q=${encodeURIComponent(query)}`));
  const target = document.createElement('div');
  document.body.append(target);
  mounted.push(mount(SearchView, { target, props: { search, router } }));
  flushSync();
  const input = target.querySelector<HTMLInputElement>('#search-input');
  if (!input) throw new Error('SearchView rendered no search field.');
  return { search, router, input };
}

function type(input: HTMLInputElement, text: string) {
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}

describe('SearchView', () => {
  it('starts with the route query in the field', () => {
    const { input, search } = render('alpha');
    expect(input.value).toBe('alpha');
    expect(search.query).toBe('alpha');
  });

  it('keeps what is being typed when a result lands or the hits are cleared', () => {
    const { input, search } = render('alpha');
    type(input, 'sr');
    // The previous query's search answering while the person types (what SearchState.load sets).
    search.matched = 'all';
    search.hits = [];
    search.searching = false;
    flushSync();
    expect(input.value).toBe('sr');
    search.matched = null;
    flushSync();
    expect(input.value).toBe('sr');
  });

  it('puts a new route query into the field, and searches for it', () => {
    const { input, router, search } = render('alpha');
    type(input, 'sr');
    router.go('search', { q: 'beta' });
    flushSync();
    expect(input.value).toBe('beta');
    expect(search.query).toBe('beta');
  });
});
