package rotation
