// Just enough of the Arduino core to run dealer_assist.ino on a PC, its serial port being file descriptor 0
// (a pty, a socket, a real UART). Used by tests/test_hardware_firmware.py to check that the reference firmware
// speaks the same protocol as the Python device. Not for the board: the Arduino IDE brings its own Arduino.h.
#pragma once
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HIGH 1
#define LOW 0
#define OUTPUT 1
#define INPUT_PULLUP 2
#define A0 14
#define PROGMEM  // on the board: constants kept in flash, read with pgm_read_dword
#define pgm_read_dword(address) (*(const uint32_t *)(address))
#define PSTR(text) (text)
#define snprintf_P snprintf

inline unsigned long millis();

// Pins read as a closed, idle shaker and an untouched panel, unless the file named by $PINS says otherwise: lines
// "<pin> <0|1>" (e.g. "6 1" opens the dome, "9 0" holds CONFIRM down). The file is read again every 10 ms, so a
// test can press and release buttons while the sketch runs.
inline int digitalRead(uint8_t pin) {
  static int levels[32];
  static unsigned long readAt = 0;
  static bool loaded = false;
  if (!loaded || millis() - readAt >= 10) {
    for (int i = 0; i < 32; i++) levels[i] = i == 6 ? LOW : HIGH;  // DOME_PIN closed (switch to ground)
    const char *path = getenv("PINS");
    FILE *file = path ? fopen(path, "r") : NULL;
    unsigned number, level;
    while (file && fscanf(file, "%u %u", &number, &level) == 2)
      if (number < 32) levels[number] = level ? HIGH : LOW;
    if (file) fclose(file);
    readAt = millis();
    loaded = true;
  }
  return pin < 32 ? levels[pin] : HIGH;
}
inline void digitalWrite(uint8_t, uint8_t) {}
inline void pinMode(uint8_t, uint8_t) {}
inline int analogRead(uint8_t) { return 0; }
inline void randomSeed(unsigned long seed) { srand(seed ? seed : 1); }
inline long random(long low, long high) { return low + rand() % (high - low); }
inline unsigned long millis() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000UL + now.tv_nsec / 1000000UL;
}

struct PcSerial {
  int pending = -1;
  void begin(long) { fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK); }
  int available() {
    if (pending < 0) {
      unsigned char c;
      if (::read(0, &c, 1) == 1) pending = c;
      else usleep(200);
    }
    return pending >= 0;
  }
  int read() {
    int c = pending;
    pending = -1;
    return c;
  }
  void write(char c) { ::write(1, &c, 1); }
  void print(const char *text) { ::write(1, text, strlen(text)); }
};
inline PcSerial Serial;

void setup();
void loop();
int main() {
  setup();
  for (;;) loop();
}
