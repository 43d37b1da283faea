// Address search through the maps service (decisions §8): its script loads only when a key is configured and
// an address form is open, with the configured region and language; a chosen place fills the address parts.
import type { AddressPart } from './form-model.ts';

export interface MapsSettings {
  key: string;
  region: string;
  language: string;
}

/** One part of a place's address as the maps service answers it. */
export interface AddressComponent {
  longText: string | null;
  shortText: string | null;
  types: string[];
}

export interface PlaceSuggestion {
  id: string;
  text: string;
  /** Reads the place's address parts and position. */
  resolve: () => Promise<{ components: AddressComponent[]; lat: number | null; lng: number | null }>;
}

export interface PlacesSearch {
  suggest: (input: string) => Promise<PlaceSuggestion[]>;
}

const CALLBACK = '__careplaneMapsReady';

export function mapsScriptUrl({ key, region, language }: MapsSettings): string {
  const query = new URLSearchParams({
    key,
    v: 'weekly',
    libraries: 'places',
    region,
    language,
    loading: 'async',
    callback: CALLBACK,
  });
  return `https://maps.googleapis.com/maps/api/js?${query.toString()}`;
}

/** The parts of the maps API this module uses. */
interface PlacesLibrary {
  AutocompleteSessionToken: new () => unknown;
  AutocompleteSuggestion: {
    fetchAutocompleteSuggestions: (request: Record<string, unknown>) => Promise<{
      suggestions: {
        placePrediction: {
          placeId: string;
          text: { text: string };
          toPlace: () => {
            fetchFields: (request: { fields: string[] }) => Promise<unknown>;
            addressComponents?: AddressComponent[];
            location?: { lat: () => number; lng: () => number } | null;
          };
        } | null;
      }[];
    }>;
  };
}
interface MapsGlobal {
  google?: { maps?: { importLibrary: (name: string) => Promise<unknown> } };
  [CALLBACK]?: () => void;
}

let loading: Promise<PlacesLibrary> | undefined;

function loadLibrary(settings: MapsSettings): Promise<PlacesLibrary> {
  loading ??= new Promise<PlacesLibrary>((resolve, reject) => {
    const global = window as unknown as MapsGlobal;
    global[CALLBACK] = () => {
      const maps = global.google?.maps;
      if (!maps) return reject(new Error('The maps service did not start'));
      maps.importLibrary('places').then((library) => resolve(library as PlacesLibrary), reject);
    };
    const script = document.createElement('script');
    script.src = mapsScriptUrl(settings);
    script.async = true;
    script.onerror = () => reject(new Error('The maps service could not be reached'));
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Address search with the maps service, loaded on first use. */
export async function loadPlacesSearch(settings: MapsSettings): Promise<PlacesSearch> {
  const library = await loadLibrary(settings);
  let session = new library.AutocompleteSessionToken();
  return {
    suggest: async (input) => {
      const { suggestions } = await library.AutocompleteSuggestion.fetchAutocompleteSuggestions({
        input,
        sessionToken: session,
        region: settings.region.toLowerCase(),
        language: settings.language,
      });
      return suggestions.flatMap(({ placePrediction }) =>
        placePrediction
          ? [
              {
                id: placePrediction.placeId,
                text: placePrediction.text.text,
                resolve: async () => {
                  const place = placePrediction.toPlace();
                  await place.fetchFields({ fields: ['addressComponents', 'location'] });
                  // A session ends with the place it chose.
                  session = new library.AutocompleteSessionToken();
                  return {
                    components: place.addressComponents ?? [],
                    lat: place.location?.lat() ?? null,
                    lng: place.location?.lng() ?? null,
                  };
                },
              },
            ]
          : [],
      );
    },
  };
}

const first = (components: readonly AddressComponent[], ...types: string[]) => {
  for (const type of types) {
    const found = components.find((component) => component.types.includes(type));
    if (found?.longText) return found.longText;
  }
  return '';
};

/** The address parts of a place: a Thai address names its district (khet/amphoe) and province. */
export function addressFromComponents(components: readonly AddressComponent[]): Record<AddressPart, string> {
  const city = first(components, 'locality', 'postal_town', 'administrative_area_level_1');
  const province = first(components, 'administrative_area_level_1');
  return {
    title: '',
    street: first(components, 'route'),
    houseNumber: first(components, 'street_number', 'premise'),
    district: first(
      components,
      'sublocality_level_1',
      'sublocality',
      'administrative_area_level_3',
      'administrative_area_level_2',
    ),
    city,
    county: first(components, 'administrative_area_level_2') || (province !== city ? province : ''),
    postalCode: first(components, 'postal_code'),
    country: first(components, 'country'),
  };
}
