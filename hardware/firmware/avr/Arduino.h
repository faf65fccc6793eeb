// Just enough of the Arduino core to compile dealer_assist.ino with avr-gcc for an ATmega328P and measure what the
// sketch itself takes (avr-size): a polled UART, a millisecond timer, the pins as the board has them. Not the
// Arduino core (which adds its own ~1.5 KB of flash and ~160 bytes of RAM, serial buffers included): see README.
#pragma once
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIGH 1
#define LOW 0
#define OUTPUT 1
#define INPUT_PULLUP 2
#define A0 14

extern volatile unsigned long timerMillis;
inline unsigned long millis() {
  uint8_t state = SREG;
  cli();
  unsigned long now = timerMillis;
  SREG = state;
  return now;
}
inline volatile uint8_t *pinPort(uint8_t pin) { return pin < 8 ? &PIND : pin < 14 ? &PINB : &PINC; }
inline uint8_t pinBit(uint8_t pin) { return 1 << (pin < 8 ? pin : pin < 14 ? pin - 8 : pin - 14); }
inline int digitalRead(uint8_t pin) { return (*pinPort(pin) & pinBit(pin)) ? HIGH : LOW; }
inline void digitalWrite(uint8_t pin, uint8_t level) {
  volatile uint8_t *port = pinPort(pin) + 2;  // PORTx follows DDRx follows PINx
  if (level) *port |= pinBit(pin); else *port &= ~pinBit(pin);
}
inline void pinMode(uint8_t pin, uint8_t mode) {
  volatile uint8_t *ddr = pinPort(pin) + 1;
  if (mode == OUTPUT) *ddr |= pinBit(pin); else { *ddr &= ~pinBit(pin); digitalWrite(pin, HIGH); }
}
inline int analogRead(uint8_t) { ADCSRA |= _BV(ADSC); while (ADCSRA & _BV(ADSC)) {} return ADC; }
inline void randomSeed(unsigned long seed) { srandom(seed); }
inline long random(long low, long high) { return low + random() % (high - low); }

struct AvrSerial {
  void begin(long baud) {
    uint16_t divisor = F_CPU / 8 / baud - 1;
    UCSR0A = _BV(U2X0);
    UBRR0 = divisor;
    UCSR0B = _BV(RXEN0) | _BV(TXEN0);
  }
  int available() { return (UCSR0A & _BV(RXC0)) != 0; }
  int read() { return UDR0; }
  void write(char c) { while (!(UCSR0A & _BV(UDRE0))) {} UDR0 = c; }
  void print(const char *text) { while (*text) write(*text++); }
};
extern AvrSerial Serial;

void setup();
void loop();
