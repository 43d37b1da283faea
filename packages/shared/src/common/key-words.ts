// A field's key as words for people where no authored label exists: validation messages, a device's
// connection details, filter labels. One rule so a key reads the same in every place.

/** `lastName` → `Last name`, `firmware_version` → `Firmware version`, `serial-no` → `Serial no`; '' stays ''. */
export function keyWords(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
