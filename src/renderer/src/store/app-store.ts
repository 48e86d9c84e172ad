// The one zustand store (vanilla, so the event pump and tests use it without React) and the
// React context that hands components the store and the action functions.
import { createContext, useContext } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { initialState, type AppState } from './state';
import type { Actions } from './actions';

export type AppStore = StoreApi<AppState>;

export function createAppStore(state: AppState = initialState()): AppStore {
  return createStore<AppState>()(() => state);
}

export interface Runtime {
  store: AppStore;
  actions: Actions;
}

export const RuntimeContext = createContext<Runtime | null>(null);

function useRuntime(): Runtime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('RuntimeContext is missing: render inside <RuntimeContext value={…}>');
  return runtime;
}

/** Select a narrow value from the store; components re-render only when it changes. */
export function useAppState<T>(selector: (state: AppState) => T): T {
  return useStore(useRuntime().store, selector);
}

export function useActions(): Actions {
  return useRuntime().actions;
}
