/** The Mosquitto the tests (and CI) use; override with MQTT_URL_TEST. */
export const MQTT_TEST_URL = process.env.MQTT_URL_TEST ?? 'mqtt://127.0.0.1:1883';
